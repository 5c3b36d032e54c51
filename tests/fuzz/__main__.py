"""Fuzz many programs: `python -m tests.fuzz --count 20000 --backend numpy`.

Prints each difference signature once with its count and a minimized program, and
a summary line: programs run, programs that differ, signatures."""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter

from .generator import generate
from .runner import compare, minimize


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.fuzz")
    parser.add_argument("--count", type=int, default=1000, help="programs to run")
    parser.add_argument("--seed", type=int, default=0, help="first seed")
    parser.add_argument("--backend", default="numpy", help="lazyarr backend")
    parser.add_argument("--no-minimize", action="store_true",
                        help="print each signature's first program as generated")
    parser.add_argument("--quiet", action="store_true", help="only the summary")
    args = parser.parse_args(argv)
    counts: Counter = Counter()
    examples: dict = {}
    start = time.perf_counter()
    for seed in range(args.seed, args.seed + args.count):
        difference = compare(generate(seed), args.backend)
        if difference is None:
            continue
        counts[difference.signature] += 1
        if difference.signature not in examples:
            examples[difference.signature] = (seed, difference)
    differing = sum(counts.values())
    for signature, n in counts.most_common():
        seed, difference = examples[signature]
        if not args.quiet:
            shown = difference if args.no_minimize else minimize(difference, args.backend)
            print(f"--- {n} program(s), first seed {seed}: {shown.report()}\n")
    print(f"{args.count} programs (seeds {args.seed}..{args.seed + args.count - 1}) on "
          f"{args.backend}: {differing} differ from NumPy, in {len(counts)} signatures "
          f"({time.perf_counter() - start:.0f} s)")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
