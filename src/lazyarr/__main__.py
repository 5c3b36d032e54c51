"""`python -m lazyarr [option] ... (script.py | -c cmd | -m mod | -) [arg] ...`: run an
unmodified NumPy program with `numpy` meaning lazyarr in its own code (see _runner)."""

from __future__ import annotations

import os
import sys

from lazyarr import __version__, set_log
from lazyarr._runner import run

USAGE = """\
usage: python -m lazyarr [option] ... (script.py | -c cmd | -m mod | -) [arg] ...

Runs a NumPy program unchanged, with `import numpy` (and numpy.linalg, numpy.fft,
numpy.random) giving lazyarr in the program and in the modules of its own directory;
other packages (the standard library, site-packages) keep the real NumPy.

options:
  -c cmd          program passed in as a string (terminates the option list)
  -m mod          run library module as a script (terminates the option list)
  -               program read from stdin (the default when stdin is not a terminal;
                  with neither, an interactive console)
  --backend NAME  lazyarr backend, NAME or NAME:DEVICE (sets LAZYARR_BACKEND)
  --summary       at exit, print lazyarr's flushes by cause, compiles, cache hits and
                  fallbacks, and the lines of the program that caused the most work
                  (lazyarr.report()), to stderr (sets LAZYARR_SUMMARY=1)
  --log CATS      log lazyarr's events to stderr as they happen: a comma-separated
                  subset of flush,compile,cut,fallback,transfer, or all (sets
                  LAZYARR_LOG)
  -h, --help      print this help message and exit
  --version       print lazyarr's version and exit
  arg ...         arguments passed to the program in sys.argv[1:]

environment: LAZYARR_BACKEND, LAZYARR_SUMMARY, LAZYARR_FALLBACK, LAZYARR_LOG,
LAZYARR_LONG_COMPILE, LAZYARR_CACHE_DIR (see docs/lazy-evaluation.md)
"""


def _usage_error(message: str) -> int:
    print(f"{message}\n{USAGE.splitlines()[0]}\n"
          "Try `python -m lazyarr --help' for more information.", file=sys.stderr)
    return 2


def main(argv: list[str]) -> int:
    """Parse lazyarr's own options (those before the program), then run the program."""
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg in ("-h", "--help"):
            print(USAGE, end="")
            return 0
        if arg == "--version":
            print(f"lazyarr {__version__}")
            return 0
        if arg[:2] in ("-c", "-m"):  # also the attached forms, -cCODE and -mMODULE
            value = arg[2:] or (argv[i + 1] if i + 1 < len(argv) else None)
            if value is None:
                return _usage_error(f"Argument expected for the {arg[:2]} option")
            rest = argv[i + 1:] if arg[2:] else argv[i + 2:]
            run(**{"code" if arg[1] == "c" else "module": value}, args=rest)
            return 0
        if arg == "--summary":
            os.environ["LAZYARR_SUMMARY"] = "1"
        elif arg == "--log" or arg.startswith("--log="):
            value = arg.partition("=")[2] if "=" in arg else (
                argv[i + 1] if i + 1 < len(argv) else None)
            if value is None:
                return _usage_error("option --log requires an argument")
            try:
                set_log(value)
            except ValueError as exc:
                return _usage_error(f"option --log: {exc}")
            os.environ["LAZYARR_LOG"] = value
            i += 0 if "=" in arg else 1
        elif arg == "--backend" or arg.startswith("--backend="):
            value = arg.partition("=")[2] if "=" in arg else (
                argv[i + 1] if i + 1 < len(argv) else "")
            if not value:
                return _usage_error("option --backend requires an argument")
            os.environ["LAZYARR_BACKEND"] = value
            i += 0 if "=" in arg else 1
        elif arg == "--":
            i += 1
            break
        elif arg.startswith("-") and arg != "-":
            return _usage_error(f"unknown option {arg}")
        else:
            break
        i += 1
    run(path=argv[i] if i < len(argv) else None, args=argv[i + 1:])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
