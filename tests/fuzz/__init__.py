"""The whole-program differential fuzzer (see generator.py and runner.py).

Run many programs locally: `python -m tests.fuzz --count 20000 --backend numpy`
(from the repository root; `--help` for seeds and the backend)."""
