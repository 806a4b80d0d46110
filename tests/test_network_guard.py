"""The autouse network guard of conftest.py: remote connections fail, local ones work."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from tests.conftest import NetworkBlockedError


def test_remote_connection_is_blocked_and_recorded(network_guard: list[str]) -> None:
    with pytest.raises(NetworkBlockedError):
        socket.create_connection(("192.0.2.1", 80), timeout=0.5)  # TEST-NET-1
    with pytest.raises(NetworkBlockedError):
        socket.getaddrinfo("example.com", 443)
    sock = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
    with pytest.raises(NetworkBlockedError):
        sock.connect_ex(("2001:db8::1", 80, 0, 0))
    sock.close()
    assert len(network_guard) == 3
    network_guard.clear()  # the attempts were deliberate: do not fail this test


def test_loopback_and_unix_sockets_are_allowed(tmp_path: Path) -> None:
    with socket.create_server(("127.0.0.1", 0)) as server:
        with socket.create_connection(server.getsockname(), timeout=5):
            pass
        with socket.create_connection(("localhost", server.getsockname()[1]), timeout=5):
            pass
    path = str(tmp_path / "s.sock")
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as server:
        server.bind(path)
        server.listen()
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
            client.connect(path)
