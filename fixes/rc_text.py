"""A round-trip editor for Theano config files: every line is kept byte for byte (comments,
order, unknown sections, line endings) except the ones an edit changes.

It reads the file the way Python's ``configparser`` does for Theano (Theano rel-1.0.5
theano/configparser.py:77): ``[section]`` headers, ``key = value`` or ``key: value`` lines,
comments starting with ``#`` or ``;`` on their own line, indented lines continuing the value
above. Option names compare case-insensitively, section names exactly.
"""

from __future__ import annotations

import re
from typing import NamedTuple

# Lines end in \r\n, \n or a lone \r: Theano's configparser opens the file in text mode
# (universal newlines), so an old Mac-style file is read line by line too.
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")
_HEADER = re.compile(r"\[(?P<name>[^\]]+)\]")  # configparser's SECTCRE: text after the "]" is ignored
_OPTION = re.compile(r"(?P<key>[ \t]*[^=:\s][^=:]*?)(?P<sep>\s*[=:]\s*)(?P<value>.*?)(?P<end>\r\n|\r|\n|)$", re.S)
INLINE_COMMENT = re.compile(r"(^|\s)[#;]")  # the same rule checks/config_values.py judges by


class Line(NamedTuple):
    at: int
    section: str | None
    key: str | None  # None: header, comment, blank or continuation
    value: str | None


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def _ending(line: str) -> str:
    return "\r\n" if line.endswith("\r\n") else line[-1:] if line.endswith(("\n", "\r")) else ""


def _loose(line: str) -> bool:
    """A blank or comment line (configparser's comment prefixes, at the start of the line)."""
    text = line.strip()
    return not text or (text[0] in "#;" and not line[:1].isspace())


class RcText:
    def __init__(self, text: str) -> None:
        self.lines: list[str] = _LINE.findall(text)
        endings = [_ending(line) for line in self.lines if _ending(line)]
        self.newline = max(("\r\n", "\n", "\r"), key=endings.count) if endings else "\n"

    def text(self) -> str:
        return "".join(self.lines)

    # -- reading --------------------------------------------------------------------------------

    def parsed(self) -> list[Line]:
        found, section, key_indent = [], None, -1  # -1: no option above to continue
        for i, line in enumerate(self.lines):
            body = line.rstrip("\r\n")
            stripped = body.strip()
            header = _HEADER.match(body)
            if header and not body[:1].isspace():
                section, key_indent = header.group("name"), -1
                found.append(Line(i, section, None, None))
                continue
            if not stripped or stripped[0] in "#;":
                found.append(Line(i, section, None, None))
                continue
            # Python 3's configparser: a line indented deeper than the option above continues its
            # value; one indented the same (or an indented first option) is an option of its own.
            if key_indent >= 0 and _indent(body) > key_indent:
                found.append(Line(i, section, None, None))
                continue
            match = _OPTION.match(line)
            if match and section is not None:
                found.append(Line(i, section, match.group("key").strip().lower(), match.group("value").rstrip()))
                key_indent = _indent(body)
            else:
                found.append(Line(i, section, None, None))
        return found

    def sections(self) -> list[str]:
        return [ln.section for ln in self.parsed() if ln.key is None and ln.section is not None
                and _HEADER.match(self.lines[ln.at].rstrip("\r\n"))] if self.lines else []

    def find(self, section: str, option: str) -> Line | None:
        """The option's last occurrence: the one Python 2's configparser lets win when a section
        or option repeats (Python 3's refuses such a file; editing the last one keeps it as bad)."""
        found = [ln for ln in self.parsed() if ln.section == section and ln.key == option.lower()]
        return found[-1] if found else None

    def get(self, section: str, option: str) -> str | None:
        found = self.find(section, option)
        return found.value if found else None

    def _extent(self, index: int) -> int:
        """Index after the option at ``index`` and its continuation lines."""
        end, base = index + 1, _indent(self.lines[index])
        while end < len(self.lines) and _indent(self.lines[end]) > base and self.lines[end].strip():
            end += 1
        return end

    def _header_index(self, section: str) -> int | None:
        return next((ln.at for ln in self.parsed() if ln.section == section and ln.key is None
                     and _HEADER.match(self.lines[ln.at].rstrip("\r\n"))), None)

    # -- editing --------------------------------------------------------------------------------

    def _terminate_last(self) -> None:
        if self.lines and not _ending(self.lines[-1]):
            self.lines[-1] += self.newline

    def set(self, section: str, option: str, value: str) -> bool:
        """Set ``[section] option = value``; keeps the key's spelling and separator when present.
        Returns False when it already had that value."""
        found = self.find(section, option)
        if found is not None:
            match = _OPTION.match(self.lines[found.at])
            assert match is not None
            if match.group("value").rstrip() == value:
                return False
            sep = match.group("sep") if match.group("sep").strip() and value else f"{match.group('sep').rstrip()} "
            end = self._extent(found.at)
            # The edited line ends as the lines it replaces did (a last line may have no ending).
            self.lines[found.at:end] = [f"{match.group('key')}{sep}{value}".rstrip() + _ending(self.lines[end - 1])]
            return True
        new = f"{option} = {value}".rstrip() + self.newline
        header = self._header_index(section)
        if header is None:
            self._terminate_last()
            if self.lines and self.lines[-1].strip():
                self.lines.append(self.newline)
            self.lines += [f"[{section}]{self.newline}", new]
            return True
        last = header
        for ln in self.parsed()[header + 1:]:
            if ln.section != section:
                break
            if ln.key is not None:
                last = ln.at
        at = self._extent(last)
        if at == len(self.lines):
            self._terminate_last()
        self.lines.insert(at, new)
        return True

    def remove(self, section: str, option: str) -> bool:
        found = self.find(section, option)
        if found is None:
            return False
        del self.lines[found.at:self._extent(found.at)]
        return True

    def section_is_empty(self, section: str) -> bool:
        return not any(ln.section == section and (ln.key is not None or self.lines[ln.at].strip()[:1] in ("#", ";"))
                       for ln in self.parsed())

    def remove_section(self, section: str) -> bool:
        """Drop the header and every line up to the next header (blank lines before it stay)."""
        start = self._header_index(section)
        if start is None:
            return False
        end = start + 1
        while end < len(self.lines) and not (_HEADER.match(self.lines[end].rstrip("\r\n"))
                                             and not self.lines[end][:1].isspace()):
            end += 1
        body = end  # comment lines after the section's last option usually introduce what follows: keep them
        while body > start + 1 and _loose(self.lines[body - 1]):
            body -= 1
        if any(self.lines[i].strip() for i in range(body, end)):
            while (start == 0 or not self.lines[start - 1].strip()) and not self.lines[body].strip():
                body += 1  # one blank line between the neighbours is enough
            del self.lines[start:body]
            return True
        if end == len(self.lines):  # the last section: the blank lines above it go too
            while start > 0 and not self.lines[start - 1].strip():
                start -= 1
        # Keep one blank line between the neighbours: the one above if there is one, else ours.
        elif not (start > 0 and not self.lines[start - 1].strip()):
            while end > start + 1 and not self.lines[end - 1].strip():
                end -= 1
        del self.lines[start:end]
        return True

    def rename_section(self, old: str, new: str) -> bool:
        start = self._header_index(old)
        if start is None:
            return False
        line = self.lines[start]
        self.lines[start] = line.replace(f"[{old}]", f"[{new}]", 1)
        return True

    def split_inline_comment(self, index: int) -> bool:
        """``key = value  # note`` -> ``# note`` on its own line above ``key = value``."""
        match = _OPTION.match(self.lines[index])
        if not match:
            return False
        value = match.group("value")
        hit = INLINE_COMMENT.search(value)
        if not hit:
            return False
        cut = hit.start() + len(hit.group(1))
        comment, kept = value[cut:].strip(), value[:cut].rstrip()
        end = match.group("end") or self.newline
        self.lines[index:index + 1] = [comment + end, f"{match.group('key')}{match.group('sep')}{kept}".rstrip() + end]
        return True
