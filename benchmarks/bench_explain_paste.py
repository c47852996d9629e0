"""How much of `explain`'s score survives the ways a real log gets pasted: of the corpus logs whose
labelled cause `explain` names first as they are stored, the share it still names first once the
same text has gone through one of these (each a shape real posts take):

- ``web``: a blog, a forum or a mail archive's page (curly quotes, HTML entities, non-breaking spaces);
- ``console``: the old Windows console's copy (each long line cut into rows of 80 columns);
- ``ci``: a CI runner's time stamp before every line;
- ``quoted``: a reply quoting the log (``> `` before every line);
- ``indented``: a markdown code block (four spaces before every line).

The shapes are tests/explain_pastes.py's. In-process (`explain_stream`, no Theano imported); a
quality measure, not a timing.

    python benchmarks/bench_explain_paste.py [--only web,console] [--show N]
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.explain_pastes import PASTES  # noqa: E402
from tests.explain_sets import all_cases  # noqa: E402
from theanodoctor.explain import explain_stream  # noqa: E402


def first_cause(text: str) -> list[str]:
    found = explain_stream(io.BytesIO(text.encode("utf-8"))).findings
    return [f.cause for f in found if f.confidence != "low"][:1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default=",".join(PASTES), help="comma-separated pastes to measure")
    parser.add_argument("--show", type=int, default=0, help="list up to N logs each paste loses")
    args = parser.parse_args()
    chosen = [name.strip() for name in args.only.split(",") if name.strip()]
    unknown = [name for name in chosen if name not in PASTES]
    if unknown:
        parser.error(f"unknown paste(s): {', '.join(unknown)}; known: {', '.join(PASTES)}")
    right = []
    for case in all_cases():
        expected = case.label["suggested_cause_id"]
        text = case.log.read_text(encoding="utf-8", errors="replace")
        if expected != "none" and first_cause(text) == [expected]:
            right.append((case, expected, text))
    print(f"{len(right)} corpus logs whose labelled cause explain names first as stored")
    for name in chosen:
        lost = [f"{case.set}/{case.stem}" for case, expected, text in right
                if first_cause(PASTES[name](text)) != [expected]]
        kept = len(right) - len(lost)
        print(f"  {name:9} {kept}/{len(right)} still first ({kept / max(len(right), 1):.1%})")
        for stem in lost[:args.show]:
            print(f"      lost: {stem}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
