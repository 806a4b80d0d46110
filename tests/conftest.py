"""Shared fixtures: real temp-dir stores with fake embeddings and a fake clock.

Every test also runs under a network guard: opening a connection to anything
but a Unix socket or the loopback interface fails the test.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from hermes_graph import MemoryConfig, MemoryStore
from hermes_graph.testing import FakeClock, HashingEmbeddings
from tests.store_helpers import dump_db as dump_db  # re-exported: tests import it from here

START = "2024-01-01T00:00:00+00:00"


class NetworkBlockedError(RuntimeError):
    """A test tried to reach the network."""


def _is_local(host: object) -> bool:
    if not isinstance(host, str):
        return False
    if host in ("localhost", ""):
        return True
    try:
        return ipaddress.ip_address(host.split("%")[0]).is_loopback
    except ValueError:
        return False


@pytest.fixture(autouse=True)
def network_guard(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Block (and record) non-local connections; a recorded attempt fails the test."""
    attempts: list[str] = []
    real_connect = socket.socket.connect
    real_connect_ex = socket.socket.connect_ex
    real_getaddrinfo = socket.getaddrinfo

    def check(sock: socket.socket, address: Any) -> None:
        if sock.family == getattr(socket, "AF_UNIX", None):
            return
        host = address[0] if isinstance(address, tuple) and address else address
        if not _is_local(host):
            attempts.append(repr(address))
            raise NetworkBlockedError(f"test tried to open a network connection to {address!r}")

    def connect(sock: socket.socket, address: Any) -> None:
        check(sock, address)
        real_connect(sock, address)

    def connect_ex(sock: socket.socket, address: Any) -> int:
        check(sock, address)
        return real_connect_ex(sock, address)

    def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        if host is not None and not _is_local(host if isinstance(host, str) else str(host)):
            attempts.append(f"getaddrinfo({host!r})")
            raise NetworkBlockedError(f"test tried to resolve {host!r}")
        return real_getaddrinfo(host, *args, **kwargs)

    monkeypatch.setattr(socket.socket, "connect", connect)
    monkeypatch.setattr(socket.socket, "connect_ex", connect_ex)
    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    yield attempts
    if attempts:
        pytest.fail(f"test opened network connection(s): {attempts}")


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(START)


@pytest.fixture
def embeddings() -> HashingEmbeddings:
    return HashingEmbeddings(64)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "memory.db"


@pytest.fixture
def open_store(db_path: Path, embeddings: HashingEmbeddings,
               clock: FakeClock) -> Iterator[Callable[..., MemoryStore]]:
    """Open a store on the test's database file; every store opened is closed at teardown."""
    opened: list[MemoryStore] = []

    def factory(path: Path | None = None, *, config: MemoryConfig | None = None,
                embedder: Any = None) -> MemoryStore:
        store = MemoryStore(path or db_path, embeddings=embedder or embeddings, clock=clock,
                            config=config)
        opened.append(store)
        return store

    yield factory
    for store in opened:
        store.close()


@pytest.fixture
def store(open_store: Callable[..., MemoryStore]) -> MemoryStore:
    return open_store()


@pytest.fixture
def fresh_store(tmp_path: Path,
                open_store: Callable[..., MemoryStore]) -> Callable[[], MemoryStore]:
    """A factory of new, empty stores, each on its own database file."""
    count = iter(range(1_000_000))

    def factory() -> MemoryStore:
        directory = tmp_path / f"store-{next(count)}"
        directory.mkdir()
        return open_store(directory / "memory.db")

    return factory

