"""Python Lark as the judge of toolgram's Lark export (test/support/larkCheck.ts runs it).

Reads a JSON list of jobs on standard input, each {"grammar": "...", "texts": ["...", ...]}, and prints one JSON list
with, per job, either the list of verdicts (true: Lark parses the whole text from `start`) or {"error": "..."} when
Lark refuses the grammar. Earley with the dynamic lexer, as llguidance reads its Lark dialect: terminals are matched
where the parser expects them, so overlapping terminals do not matter. ambiguity="forest" skips choosing among
parse trees: only acceptance is asked.
"""

import json
import sys

from lark import Lark
from lark.exceptions import UnexpectedInput


def verdicts(job):
    try:
        parser = Lark(job["grammar"], parser="earley", lexer="dynamic", start="start", ambiguity="forest")
    except Exception as e:  # a grammar Lark refuses is the answer, not a crash
        return {"error": f"{type(e).__name__}: {e}"}
    out = []
    for text in job["texts"]:
        try:
            parser.parse(text)
            out.append(True)
        except UnexpectedInput:
            out.append(False)
    return out


def main():
    jobs = json.load(sys.stdin)
    json.dump([verdicts(job) for job in jobs], sys.stdout)


if __name__ == "__main__":
    main()
