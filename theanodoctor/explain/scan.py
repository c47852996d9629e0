"""One streaming pass over the log: which signatures match where, and which lines matter.

Lines are gathered in blocks; every signature's literal texts, the words that make a line
significant and the context texts are searched in the lower-cased block at once, by one
Aho-Corasick automaton (pyahocorasick, in C: one pass whatever the catalogue's size), and only
the lines they hit are normalised and matched, against the signatures whose texts they hold.
Everything kept is bounded: a few evidence lines per signature, the first and last significant
lines."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import accumulate

import ahocorasick

from theanodoctor.kb_causes import Signature

from .context import TRIGGERS, FactReader
from .normalize import as_typed, plain, segments, unwrapped
from .pyera import (
    CODE_BACK,
    HINT_TEXTS,
    frame_codes,
    in_frame_code,
    is_code,
    python_hint,
    shown_code,
    shown_header,
    without_comment,
)

BLOCK_LINES = 2048
EVIDENCE_PER_SIGNATURE = 3
MAX_SHOWN_CHARS = 400  # of one evidence or significant line
FIRST_SIGNIFICANT, LAST_SIGNIFICANT = 12, 30
# The old back-end's own paths and banner (lower-cased): the scan records whether they appear,
# whatever the signatures' context lists, for the refiners that judge a log by its era.
OLD_BACKEND_SIGNS = ("theano/sandbox/cuda", "theano\\sandbox\\cuda", "theano.sandbox.cuda", "using gpu device")
SIGNIFICANT_WORDS = ("error", "exception", "traceback", "fatal", "undefined reference", "could not", "cannot",
                     "failed", "unable", "warning (theano", "during handling of the above",
                     "the above exception was", "segmentation fault", "aborted", "illegal instruction",
                     "killed")
# The process died without a Python exception: what the shell (or the C library) prints for a
# signal: SIGSEGV, SIGABRT, SIGBUS, SIGILL, SIGKILL (the kernel's out-of-memory killer).
# A shell running a script names the job instead: `train.sh: line 3:  3180 Killed   python train.py`.
PROCESS_DIED = re.compile(r"(?:Segmentation fault|Aborted|Bus error|Illegal instruction)(?::\s*\d+)?"
                          r"(?:\s*\(core dumped\))?\.?\s*$|^\s*Killed\s*$|"
                          r"^\S[^:]*: line \d+:\s+\d+ (?:Killed|Segmentation fault|Aborted|Bus error|"
                          r"Illegal instruction)(?:\s+\(core dumped\))?\s")
# Slurm's srun names a task that ended with a failure status (the program's own message may be no
# traceback: `An unexpected KeyError exception occurred`, a C++ abort message): the run failed.
JOB_FAILED = re.compile(r"^srun: error: \S+: tasks? [\d,-]+: Exited with exit code [1-9]")
EXCEPTION_LINE = re.compile(
    # a bare `Exception` too: Theano raises one for every failed compilation
    r"^\s*(?:[A-Za-z_][\w.]*\.)?(?P<type>Exception|[A-Z]\w*(?:Error|Exception|Exit|Interrupt|Failure))"
    r"(?:\s*:\s*(?P<msg>.*))?$")
LOGGER_LINE = re.compile(r"^\s*(?:ERROR|CRITICAL) \([\w.]+\):")
COMPILER_LINE = re.compile(r"\berror\b\s*(?:C\d+|LNK\d+)?\s*:|fatal error|undefined reference|cannot find -l|"
                           r"\bfatal\s*:|collect2|Compilation failed", re.IGNORECASE)
# Theano logs the traceback of a global optimization that failed and goes on without it
# (SeqOptimizer.warn, theano/gof/opt.py), in any logging format (`ERROR (theano.gof.opt): Traceback:`,
# `...: theano.gof.opt: ERROR: Traceback:`): that traceback, its exception and one chained to it are
# not where the run ended. A local optimization's `TRACEBACK:` (NavigatorOptimizer.warn) is taken only
# after the `Optimization failure due to:` of one that is neither constant folding (often the compiler's
# error) nor a GPU or convolution pass (a broken set-up), and never with an AssertionError, which still
# stops the compile.
LOGGED_TRACEBACK = re.compile(r"\btheano\.gof\.opt\b.*\bTraceback:\s*$")
LOCAL_OPT_FAILED = re.compile(r"\btheano\.gof\.opt\b.*Optimization failure due to: "
                              r"(?!constant_folding\b|LocalOptGroup\b)(?!\w*(?:gpu|conv|dnn))\w+")
LOCAL_TRACEBACK = re.compile(r"\btheano\.gof\.opt\b.*\bTRACEBACK:\s*$")
# the same record printed again by a second handler (the root logger's `ERROR:theano.gof.opt:`)
# right after the logged traceback's exception
LOGGED_AGAIN = re.compile(r"\btheano\.gof\.opt\b.*\bTraceback \(most recent call last\):\s*$")
CHAINED = ("during handling of the above exception", "the above exception was the direct cause")
WATCHED_PER_LOG = 64  # lines kept for the producers beside the signatures (the first and the last)
WATCH_BACK = 8  # lines kept above a watched line: an IPython traceback shows the import a few lines up


@dataclass
class Hit:
    signature: Signature
    count: int = 0
    evidence: list[tuple[int, str, str]] = field(default_factory=list)  # line, text, note
    values: dict[str, str] = field(default_factory=dict)


@dataclass
class ScanResult:
    lines: int = 0
    hits: dict[str, Hit] = field(default_factory=dict)  # signature id -> hit
    context_seen: set[str] = field(default_factory=set)
    first_significant: list[tuple[int, str]] = field(default_factory=list)
    last_significant: deque[tuple[int, str]] = field(default_factory=lambda: deque(maxlen=LAST_SIGNIFICANT))
    final_exception: tuple[int, str] | None = None
    python_hint: str | None = None  # a Python version seen in the log's paths
    traceback: bool = False  # a Python traceback began, even where the paste stops before its exception
    died: bool = False  # the process was killed by a signal (PROCESS_DIED), or srun says it failed (JOB_FAILED)
    nonblank: int = 0
    # lines holding a watched text (Scanner's `watch`): (number, text, up to WATCH_BACK lines before, the line after)
    watched: list[tuple[int, str, tuple[str, ...], str]] = field(default_factory=list)
    watched_last: deque[tuple[int, str, tuple[str, ...], str]] = field(
        default_factory=lambda: deque(maxlen=WATCHED_PER_LOG // 2))
    facts: FactReader = field(default_factory=FactReader)  # what the log shows (context.py)

    def watched_lines(self) -> list[tuple[int, str, tuple[str, ...], str]]:
        seen = {item[0] for item in self.watched}
        return self.watched + [item for item in self.watched_last if item[0] not in seen]

    def failed(self) -> bool:
        """The run stopped: an exception, a traceback (even one the paste cuts short), a killed process."""
        return self.final_exception is not None or self.traceback or self.died

    def warned(self) -> bool:
        return any(hit.signature.warning for hit in self.hits.values())

    def significant(self) -> list[tuple[int, str]]:
        seen = {n for n, _ in self.first_significant}
        return self.first_significant + [item for item in self.last_significant if item[0] not in seen]


# The old back-end prints the source of a module nvcc failed to compile, every line after its number
# (Theano rel-0.9.0 theano/sandbox/cuda/nvcc_compiler.py:385-386, `print(i + 1, l)`; the file
# cmodule.py writes for g++, rel-1.0.5 theano/gof/cmodule.py:2383-2384, numbers them `%05i\t`): the
# string literals of that code (`"initCnmem: cnmemInit call failed!"`) are no messages of the run.
LISTED = re.compile(r"(\d{1,6})(?:[ \t]|$)")


def in_listing(window: list[str], at: int) -> bool:
    """Whether ``window[at]`` is a line of such a listing: numbered one after the line above it."""
    numbered = LISTED.match(window[at])
    if numbered is None or at == 0:
        return False
    above = LISTED.match(window[at - 1])
    return above is not None and int(above.group(1)) == int(numbered.group(1)) - 1


class Scanner:
    """``watch``: lower-case texts whose lines are kept (with their neighbours) in ``watched``
    for the producers of findings that read more than one line (explain/api_era.py)."""

    def __init__(self, sigs: Iterable[Signature], watch: Iterable[str] = (), context: Iterable[str] = ()) -> None:
        self.sigs = tuple(sigs)
        # the context texts (the signatures' and the caller's), the old back-end's signs and the
        # texts that may name the Python (pyera.py)
        self.context = sorted({c for s in self.sigs for c in s.context + s.unless} | set(OLD_BACKEND_SIGNS)
                              | set(HINT_TEXTS) | set(context))
        holders: dict[str, list[int]] = {word: [] for word in SIGNIFICANT_WORDS}
        for index, sig in enumerate(self.sigs):
            for literal in sig.contains:
                holders.setdefault(literal, []).append(index)
        self.literals = sorted(holders)
        self._holders, self._watch = holders, set(watch)
        self.result = ScanResult()
        self.words = self._automaton()
        self._tail: list[str] = []  # the previous block's last lines: the frame above an exception
        self._logged_traceback = False  # inside a traceback Theano logs and goes on after
        self._logged_ended = False  # that traceback's exception was the last significant line
        self._local_opt = False  # a local optimization's failure was logged: its TRACEBACK: follows
        self._local_logged = False  # inside that traceback (whose AssertionError stops the compile)

    def feed_blocks(self, blocks: Iterable[list[tuple[int, str]]]) -> ScanResult:
        for block in blocks:
            self._block(block)
        return self.result

    def feed(self, numbered: Iterable[tuple[int, str]]) -> ScanResult:
        block: list[tuple[int, str]] = []
        for item in numbered:
            block.append(item)
            if len(block) >= BLOCK_LINES:
                self._block(block)
                block = []
        if block:
            self._block(block)
        return self.result

    def _block(self, block: list[tuple[int, str]]) -> None:
        texts = [t for _, t in block]
        lines = unwrapped(texts)  # (console rows of one line: the first holds it whole)
        if lines is not texts:
            block, texts = [(number, text) for (number, _), text in zip(block, lines)], lines
        self.result.lines = block[-1][0]
        blank = texts.count("")
        if not self.result.nonblank and blank < len(texts) and "".join(texts).isspace():
            blank = len(texts)  # only spaces and tabs so far: still nothing to explain
        self.result.nonblank += len(texts) - blank
        joined = "\n".join(texts)
        typed = as_typed(joined)  # what the texts are looked for in (each line keeps its place)
        if typed != joined:
            texts = typed.split("\n")
        lowered = typed.lower()
        starts = list(accumulate(map((1).__add__, map(len, texts)), initial=0))  # (each line and its break)
        # line index -> the signatures whose literal texts it holds (matches come in the order they end)
        hit: dict[int, set[int]] = {}
        seen = self.result.context_seen
        holds: set[int] | None = None
        watched: set[int] = set()
        index, limit = -1, -1
        hint_at = -1  # where the first text that may name the Python ends (the same pass finds it)
        told: list[tuple[int, str]] = []  # (end, trigger) of the texts whose lines hold facts
        for end, (sigs, context, watch, trigger) in self.words.iter(lowered):
            if context is not None:
                seen.add(context)
                if hint_at < 0 and context in HINT_TEXTS:
                    hint_at = end
            if trigger is not None:
                told.append((end, trigger))
            if sigs is None and not watch:
                continue
            if end >= limit:
                index = bisect_right(starts, end) - 1
                limit = starts[index + 1]
                holds = None
            if sigs is not None:
                if holds is None:
                    holds = hit.setdefault(index, set())
                holds.update(sigs)
            if watch:
                watched.add(index)
        if self.result.python_hint is None and hint_at >= 0:
            self._python_hint(block, starts, hint_at)
        window = self._tail + texts
        for index in sorted(hit):
            self._line(*block[index], sorted(hit[index]), window, index + len(self._tail))
        if watched:
            self._watched(block, texts, sorted(watched))
        self._tail = window[-max(CODE_BACK, WATCH_BACK):]
        self._facts(block, starts, told)
        if self._looking_for() != self._looked_for:
            self.words = self._automaton()

    def _looking_for(self) -> tuple[frozenset[str], frozenset[str]]:
        """The context texts and fact triggers still to look for."""
        result = self.result
        return (frozenset(c for c in self.context if c not in result.context_seen
                          or (c in HINT_TEXTS and result.python_hint is None)), frozenset(result.facts.live))

    def _automaton(self) -> ahocorasick.Automaton:
        """One automaton over the texts still to look for. A text that is only context counts once:
        seen, it leaves (a Python hint's text once the Python is known), and so does a fact trigger
        whose budget is spent; on a long log (a home folder and `compiledir` on every line of a
        compiler log) the texts left are those that can still change the answer. Rebuilt only in a
        block where one of them was first seen or spent (a few milliseconds)."""
        self._looked_for = self._looking_for()
        return _automaton(self._holders, *self._looked_for, self._watch)

    def _facts(self, block: list[tuple[int, str]], starts: list[int], told: list[tuple[int, str]]) -> None:
        by_line: dict[int, set[str]] = {}
        facts = self.result.facts
        for end, trigger in told:
            if facts.wants(trigger):
                by_line.setdefault(bisect_right(starts, end) - 1, set()).add(TRIGGERS[trigger])
        for index in sorted(by_line):
            number, raw = block[index]
            after = block[index + 1][1] if index + 1 < len(block) else ""
            facts.read(number, segments(raw)[-1], by_line[index], after)

    def _watched(self, block: list[tuple[int, str]], texts: list[str], indices: list[int]) -> None:
        result = self.result
        for index in indices:
            before = tuple((self._tail + texts[:index])[-WATCH_BACK:] if index < WATCH_BACK
                           else texts[index - WATCH_BACK:index])
            after = texts[index + 1] if index + 1 < len(texts) else ""
            # the producers read the text as printed: a coloured traceback's control codes go, a web
            # page's typography is read as typed
            item = (block[index][0], _printed(block[index][1]), tuple(map(_printed, before)), _printed(after))
            if len(result.watched) < WATCHED_PER_LOG // 2:
                result.watched.append(item)
            else:
                result.watched_last.append(item)

    def _python_hint(self, block: list[tuple[int, str]], starts: list[int], pos: int) -> None:
        for _, text in block[bisect_right(starts, pos) - 1:]:
            hint = python_hint(text) if any(t in text.lower() for t in HINT_TEXTS) else None
            if hint:
                self.result.python_hint = hint
                return

    def _line(self, number: int, raw: str, candidates: list[int], window: list[str], at: int) -> None:
        """``candidates``: the signatures (in catalogue order) whose literal texts the line holds;
        ``window[at]`` is this line, with the lines above it (for the code a traceback shows)."""
        if raw[:1].isdigit() and in_listing(window, at):
            return
        parts = segments(raw)
        if "#" in raw and is_code(window, at):
            # a comment in the code a traceback quotes is no message (`# ... (out of memory)`)
            parts = [code for code in map(without_comment, parts) if code] or [""]
        self._significance(number, parts[0] if len(parts) == 1 else max(parts, key=_weight))
        if "traceback (most recent call last)" in raw.lower() and not self._logged_traceback:
            self.result.traceback = True
        if PROCESS_DIED.search(raw) or (raw.startswith("srun: error: ") and JOB_FAILED.match(raw)):
            self.result.died = True
        code: str | None = None
        header: str | None = None
        quoted: bool | None = None
        for sig in (self.sigs[i] for i in candidates):
            if sig.warning or sig.logged:
                # the call that would print a warning, quoted in a traceback's frame, printed nothing
                quoted = in_frame_code(window, at) if quoted is None else quoted
                if quoted:
                    continue
            if sig.code is not None:
                code = shown_code(window, at) if code is None else code
                if not code or not sig.code.search(code):
                    continue
            if sig.frame is not None:
                header = shown_header(window, at) if header is None else header
                if not header or not sig.frame.search(header):
                    continue
            if sig.caller is not None and not any(sig.caller.search(line) for line in frame_codes(window, at)):
                continue
            for part in parts:
                values = sig.match(part, part.lower())
                if values is not None:
                    self._record(sig, number, part, values)
                    break

    def _record(self, sig: Signature, number: int, part: str, values: dict[str, str]) -> None:
        hit = self.result.hits.setdefault(sig.id, Hit(sig))
        hit.count += 1
        if len(hit.evidence) < EVIDENCE_PER_SIGNATURE and all(n != number for n, _, _ in hit.evidence):
            hit.evidence.append((number, part[:MAX_SHOWN_CHARS], render_note(sig.note, values)))
        for key, value in values.items():
            hit.values.setdefault(key, value)

    def _significance(self, number: int, text: str) -> None:
        item = (number, text[:MAX_SHOWN_CHARS])
        exception = EXCEPTION_LINE.match(text)
        if "failure due to:" in text:
            self._local_opt = bool(LOCAL_OPT_FAILED.search(text))
        local = self._local_opt and "TRACEBACK:" in text and bool(LOCAL_TRACEBACK.search(text))
        if local or "Traceback:" in text and LOGGED_TRACEBACK.search(text):
            self._logged_traceback, self._logged_ended = True, False
            self._local_logged, self._local_opt = local, False
        elif self._logged_ended and (any(c in text.lower() for c in CHAINED)
                                     or "Traceback (" in text and LOGGED_AGAIN.search(text)):
            self._logged_traceback, self._logged_ended = True, False  # (a chained exception, or a copy)
        elif exception and self._logged_traceback and not (self._local_logged and text.startswith("AssertionError")):
            self._logged_traceback = False  # the logged traceback's own exception: the run went on
            self._logged_ended = True
        else:
            self._logged_ended = False
            if exception:
                self._logged_traceback = False
                self.result.final_exception = item
        if exception or LOGGER_LINE.match(text) or COMPILER_LINE.search(text):
            if len(self.result.first_significant) < FIRST_SIGNIFICANT:
                self.result.first_significant.append(item)
            else:
                self.result.last_significant.append(item)


def _automaton(holders: dict[str, list[int]], context: frozenset[str], triggers: frozenset[str],
               watch: set[str]) -> ahocorasick.Automaton:
    """One automaton over every text: its value is (the signatures a literal belongs to, or None
    for a text that is only context; the context text, or None for a text that is only a literal;
    whether the text is watched; the fact trigger, or None)."""
    words = ahocorasick.Automaton()
    for word in set(holders) | context | watch | triggers:
        sigs = holders.get(word)
        words.add_word(word, (None if sigs is None else tuple(sigs), word if word in context else None,
                              word in watch, word if word in triggers else None))
    words.make_automaton()
    return words


def _printed(line: str) -> str:
    return as_typed(plain(line))


def render_note(template: str, values: dict[str, str]) -> str:
    """A signature's note with the values of this match; empty when one is missing."""
    try:
        return template.format(**values) if template else ""
    except (KeyError, IndexError, ValueError):
        return ""


def _weight(part: str) -> int:
    """Which piece of a split line to show: the one that reads most like an error."""
    return 2 * bool(EXCEPTION_LINE.match(part)) + bool(COMPILER_LINE.search(part)) + (len(part) > 3)
