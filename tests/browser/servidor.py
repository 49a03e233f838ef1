"""The real web server as a subprocess on a free loopback port, for the browser tests and bench/bench_web_load.py.

It runs ``autos servir`` itself (the same command a clerk's machine runs), waits until the server answers over
HTTP and stops it after. Whatever the server wrote is kept in a log file and shown when it fails to start.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from types import TracebackType

ROOT = Path(__file__).resolve().parents[2]


def chromium_executable() -> str | None:
    """Debian's chromium: ``$AUTOS_CHROMIUM``, else the binary behind /usr/bin/chromium, else ``chromium`` on PATH.

    The binary itself is preferred to Debian's launcher script, which adds desktop flags (extensions, GPU
    rasterization) a headless test does not want.
    """
    explicit = os.environ.get("AUTOS_CHROMIUM")
    if explicit:
        return explicit if Path(explicit).is_file() else None
    debian = Path("/usr/lib/chromium/chromium")
    if debian.is_file() and os.access(debian, os.X_OK):
        return str(debian)
    return shutil.which("chromium") or shutil.which("chromium-browser")


def free_port() -> int:
    """A port nobody listens on now (the OS picks it; the server binds it a moment later)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Servidor:
    """``autos servir`` on 127.0.0.1:<free port>; a context manager that waits for it and stops it after."""

    def __init__(self, config: Path, log: Path, *, startup_timeout: float = 60.0) -> None:
        self.config = config
        self.log = log
        self.port = free_port()
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.startup_timeout = startup_timeout
        self._proc: subprocess.Popen[bytes] | None = None

    def argv(self) -> list[str]:
        return [sys.executable, "-m", "autos.cli", "servir", "--config", str(self.config),
                "--host", "127.0.0.1", "--port", str(self.port)]

    def start(self) -> None:
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        with self.log.open("wb") as out:
            self._proc = subprocess.Popen(self.argv(), stdout=out, stderr=subprocess.STDOUT, cwd=ROOT, env=env,
                                          start_new_session=True)
        self._wait_ready()

    def _wait_ready(self) -> None:
        assert self._proc is not None
        deadline = time.monotonic() + self.startup_timeout
        last_error = ""
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                raise RuntimeError(f"o servidor terminou ao iniciar (código {self._proc.returncode}):\n"
                                   f"{self.log_text()}")
            try:
                with urllib.request.urlopen(self.base_url + "/entrar", timeout=5) as resp:
                    if resp.status == 200:
                        return
                    last_error = f"HTTP {resp.status}"
            except urllib.error.HTTPError as exc:
                last_error = f"HTTP {exc.code}"
            except (urllib.error.URLError, ConnectionError, TimeoutError, OSError) as exc:
                last_error = str(exc)
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"o servidor não respondeu em {self.startup_timeout:.0f} s ({last_error}):\n"
                           f"{self.log_text()}")

    def log_text(self) -> str:
        try:
            return self.log.read_text(encoding="utf-8", errors="replace")[-4000:]
        except OSError:
            return ""

    def stop(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None or proc.poll() is not None:
            return
        proc.send_signal(signal.SIGINT)  # uvicorn's graceful shutdown
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)

    def __enter__(self) -> Servidor:
        self.start()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()
