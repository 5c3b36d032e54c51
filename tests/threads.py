"""Running a test's work in several threads at once."""

import threading


def in_threads(work, count: int) -> list:
    """`work(k)` for k in range(count), each in a thread of its own, all started before
    any is joined: their results, in order. The first exception a thread raised is
    raised here, once every thread has ended."""
    results, errors = [None] * count, []

    def run(k):
        try:
            results[k] = work(k)
        except BaseException as exc:  # noqa: BLE001  (raised below, in the test's thread)
            errors.append(exc)
    threads = [threading.Thread(target=run, args=(k,)) for k in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    return results
