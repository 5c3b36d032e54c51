"""Run the official Array API test suite (data-apis/array-api-tests) against lazyarr.

    python conformance/run.py --backend numpy|xla [--namespace standard|lazyarr]
                              [--max-examples N] [--suite PATH] [--seed S]
                              [--per-file [--file-timeout SECONDS]]
                              [--failures FILE] [-- extra pytest arguments]

The suite checkout comes from --suite or the ARRAY_API_TESTS_DIR environment variable
(see conformance/README.md). The namespace under test is the 2025.12 standard with the
linalg and fft extensions: `lazyarr.array_api` (what `Array.__array_namespace__()`
returns; no xfails) or `lazyarr` itself, which keeps NumPy's behaviour where NumPy and
the standard conflict, with conformance/xfails.txt (those conflicts) as the suite's
--xfails-file. It runs on the chosen backend, with a fixed Hypothesis seed and example
count. Prints a markdown
table of outcomes per test file and totals; --failures writes one line per failed test
(test id, then the error line) for triage.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
XFAILS = HERE / "xfails.txt"
API_VERSION = "2025.12"
NAMESPACES = {"standard": "lazyarr.array_api", "lazyarr": "lazyarr"}
OUTCOMES = ("passed", "failed", "error", "skipped", "xfailed", "xpassed")


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", choices=("numpy", "xla"), required=True)
    parser.add_argument("--namespace", choices=tuple(NAMESPACES), default="standard",
                        help="lazyarr.array_api (standard, the default) or lazyarr")
    parser.add_argument("--max-examples", type=int, default=20,
                        help="Hypothesis examples per test (default 20)")
    parser.add_argument("--seed", type=int, default=0, help="Hypothesis seed (default 0)")
    parser.add_argument("--suite", default=os.environ.get("ARRAY_API_TESTS_DIR"),
                        help="array-api-tests checkout (default: $ARRAY_API_TESTS_DIR)")
    parser.add_argument("--files", nargs="+", default=None,
                        help="test files to run, e.g. test_linalg.py (default: all)")
    parser.add_argument("--per-file", action="store_true",
                        help="one pytest process per test file, each with --file-timeout")
    parser.add_argument("--file-timeout", type=float, default=600,
                        help="seconds per file with --per-file; the file is interrupted "
                             "and its finished tests are still reported")
    parser.add_argument("--failures", type=Path, help="write failed test ids and errors here")
    parser.add_argument("pytest_args", nargs="*", help="extra pytest arguments (after --)")
    args = parser.parse_args(argv)
    if not args.suite:
        parser.error("give --suite PATH or set ARRAY_API_TESTS_DIR (see conformance/README.md)")
    args.suite = Path(args.suite).resolve()
    if not (args.suite / "array_api_tests").is_dir():
        parser.error(f"{args.suite} is not an array-api-tests checkout")
    if not (args.suite / "array-api" / "spec").is_dir():
        parser.error(f"{args.suite}/array-api is empty: check out the suite's submodule")
    return args


def environment(backend: str, namespace: str) -> dict:
    env = dict(os.environ)
    env.update(ARRAY_API_TESTS_MODULE=NAMESPACES[namespace], ARRAY_API_TESTS_VERSION=API_VERSION,
               LAZYARR_BACKEND=backend)
    return env


def xfail_ids(path: Path = XFAILS) -> list[str]:
    """The test ids of xfails.txt. Its lines are "test id  # reason" (the suite's own
    format has no inline comments, so the runner strips them); an id without a reason
    is refused."""
    ids = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        test_id, sep, reason = line.partition("  # ")
        if not sep or not reason.strip():
            sys.exit(f"{path}:{number}: an xfail needs its reason: 'test id  # reason'")
        ids.append(test_id.strip())
    return ids


def run_pytest(args, targets: list[str], report: Path, timeout: float | None) -> str | None:
    """Run the suite on `targets`; the JSON report goes to `report`. Returns a note when
    the run was cut short by `timeout`."""
    command = [
        sys.executable, "-m", "pytest", *targets,
        "-p", "no:cacheprovider", "-q", "--tb=line", "-rN",
        f"--hypothesis-seed={args.seed}", f"--max-examples={args.max_examples}",
        "--disable-deadline",  # compile time on first use is not the library's speed
        "--xfails-file", str(args.xfails_plain),
        "--json-report", f"--json-report-file={report}", "--json-report-omit", "log", "keywords", "streams",
        *args.pytest_args,
    ]
    proc = subprocess.Popen(command, cwd=args.suite, env=environment(args.backend, args.namespace),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        proc.wait(timeout=timeout)
        return None
    except subprocess.TimeoutExpired:
        # pytest ends an interrupted session normally, so the report keeps what ran.
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        return f"interrupted after {timeout:g} s"


def load_tests(report: Path) -> list[dict]:
    if not report.exists():
        return []
    data = json.loads(report.read_text())
    tests = data.get("tests", [])
    for collector in data.get("collectors", []):  # collection errors count as errors
        if collector.get("outcome") == "failed":
            tests.append({"nodeid": collector["nodeid"], "outcome": "error",
                          "collect": {"longrepr": collector.get("longrepr", "")}})
    return tests


def error_line(test: dict) -> str:
    """The line that says why `test` failed: the crash message of its failing phase."""
    for phase in ("setup", "call", "teardown", "collect"):
        part = test.get(phase) or {}
        crash = part.get("crash") or {}
        text = crash.get("message") or part.get("longrepr") or ""
        if part.get("outcome") not in (None, "passed") or text:
            lines = [ln for ln in str(text).splitlines() if ln.strip()]
            if lines:
                errors = [ln for ln in lines if ln.lstrip().startswith("E ")]
                return (errors[0] if errors else lines[0]).strip()[:300]
    return ""


def summary(rows: dict[str, collections.Counter], notes: dict[str, str]) -> str:
    header = "| file | " + " | ".join(OUTCOMES) + " | note |"
    lines = [header, "|" + "---|" * (len(OUTCOMES) + 2)]
    total = collections.Counter()
    for name in sorted(rows):
        total.update(rows[name])
        cells = " | ".join(str(rows[name][o]) for o in OUTCOMES)
        lines.append(f"| {name} | {cells} | {notes.get(name, '')} |")
    cells = " | ".join(f"**{total[o]}**" for o in OUTCOMES)
    lines.append(f"| **total** | {cells} | |")
    return "\n".join(lines)


def main(argv=None) -> int:
    args = parse_args(argv)
    test_dir = args.suite / "array_api_tests"
    files = args.files or sorted(p.name for p in test_dir.glob("test_*.py"))
    targets = [f"array_api_tests/{name}" for name in files]
    batches = [[t] for t in targets] if args.per_file else [targets]
    timeout = args.file_timeout if args.per_file else None

    rows: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    notes: dict[str, str] = {}
    failed: list[tuple[str, str]] = []
    with tempfile.TemporaryDirectory() as tmp:
        args.xfails_plain = Path(tmp) / "xfails.txt"
        xfails = xfail_ids() if args.namespace == "lazyarr" else []
        args.xfails_plain.write_text("".join(f"{i}\n" for i in xfails))
        for k, batch in enumerate(batches):
            report = Path(tmp) / f"report{k}.json"
            note = run_pytest(args, batch, report, timeout)
            tests = load_tests(report)
            for target in batch:
                name = Path(target).name
                rows[name]  # a file with no results still gets a row
                if note:
                    notes[name] = note
                elif not tests:
                    notes[name] = "no report (crash?)"
            for test in tests:
                name = Path(test["nodeid"].split("::")[0]).name
                rows[name][test["outcome"]] += 1
                if test["outcome"] in ("failed", "error"):
                    failed.append((test["nodeid"], error_line(test)))
            if args.per_file:
                print(f"[{batch[0]}] {dict(rows[Path(batch[0]).name])} {note or ''}",
                      file=sys.stderr, flush=True)

    print(f"array-api-tests on {NAMESPACES[args.namespace]}, backend {args.backend}, API {API_VERSION}, "
          f"--max-examples {args.max_examples}, --hypothesis-seed {args.seed}\n")
    print(summary(rows, notes))
    if args.failures:
        args.failures.write_text("".join(f"{nodeid}\t{line}\n" for nodeid, line in failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
