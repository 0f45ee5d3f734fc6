"""No request leaves the machine: the app's server never asks the outside world anything."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Streamlit asks an outside service for the machine's public IP when it starts
# headless (which it does by itself on a machine without a display) unless an
# address is configured. The wrapper records any such call instead of making it.
WRAPPER = r"""
import sys
from pathlib import Path
import streamlit.net_util as net_util

marker = Path(sys.argv[1])

def refuse(*args, **kwargs):
    marker.write_text("external IP lookup attempted")
    return None

net_util.get_external_ip = refuse
from streamlit.web import cli
sys.argv = ["streamlit", "run", "serve.py", "--server.headless", "true",
            "--server.port", sys.argv[2]]
cli.main()
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _listening_addresses(port: int) -> set[str]:
    """The local addresses of the sockets listening on ``port``, read from the kernel."""
    found = set()
    for table, width in (("/proc/net/tcp", 8), ("/proc/net/tcp6", 32)):
        with open(table) as rows:
            next(rows)
            for row in rows:
                local, state = row.split()[1], row.split()[3]
                address, hex_port = local.split(":")
                if state == "0A" and int(hex_port, 16) == port:  # 0A: LISTEN
                    assert len(address) == width
                    raw = bytes.fromhex(address)
                    # /proc prints each 32-bit word in host (little-endian) order
                    words = b"".join(raw[i:i + 4][::-1] for i in range(0, len(raw), 4))
                    family = socket.AF_INET if width == 8 else socket.AF_INET6
                    found.add(socket.inet_ntop(family, words))
    return found


def test_starting_the_app_asks_no_outside_service_and_listens_only_on_this_computer(tmp_path):
    marker = tmp_path / "lookup"
    port = free_port()
    env = {"HOME": str(tmp_path), "PATH": "/usr/bin:/bin",
           "ESCOBA_DB_PATH": str(tmp_path / "escoba.db")}
    server = subprocess.Popen([sys.executable, "-c", WRAPPER, str(marker), str(port)],
                              cwd=ROOT, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT)
    listening: set[str] = set()
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health",
                                            timeout=1) as reply:
                    if reply.status == 200:
                        break
            except OSError:
                time.sleep(0.2)
        else:
            raise AssertionError("the app did not start")
        time.sleep(0.5)  # the start-up banner (where the lookup happens) is printed by now
        listening = _listening_addresses(port)
    finally:
        server.terminate()
        output = server.communicate(timeout=10)[0].decode(errors="replace")
    assert not marker.exists(), output
    assert "External URL" not in output
    # Nobody else on the home or school network can open the children's data.
    assert listening == {"127.0.0.1"}, (listening, output)
    assert "Network URL" not in output
