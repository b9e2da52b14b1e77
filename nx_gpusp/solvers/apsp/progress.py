"""Progress of long all-pairs runs: messages on the "nx_gpusp" logger (INFO), drawn as
a tqdm bar instead when tqdm is importable and INFO is enabled (no new dependency)."""

import importlib.util
import logging

__all__ = ["Progress", "logger", "tqdm_available"]

logger = logging.getLogger("nx_gpusp")


def tqdm_available():
    return importlib.util.find_spec("tqdm") is not None


class Progress:
    """Counts finished sources out of ``total``; reports every ~10% (and each batch at
    DEBUG)."""

    def __init__(self, what, total):
        self.what, self.total, self.done = what, total, 0
        self._next_report = max(1, total // 10)
        self._bar = None
        if logger.isEnabledFor(logging.INFO) and tqdm_available():
            from tqdm.auto import tqdm

            self._bar = tqdm(total=total, desc=f"nx_gpusp {what}", unit="src")

    def advance(self, count):
        self.done += count
        logger.debug("%s: %d/%d sources", self.what, self.done, self.total)
        if self._bar is not None:
            self._bar.update(count)
        elif self.done >= self._next_report or self.done == self.total:
            logger.info("%s: %d/%d sources done", self.what, self.done, self.total)
            self._next_report = self.done + max(1, self.total // 10)
        if self.done >= self.total and self._bar is not None:
            self._bar.close()
