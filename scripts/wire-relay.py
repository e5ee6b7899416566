#!/usr/bin/env python3
"""Logging TCP relay for the test servers.

Listens on 127.0.0.1:LISTEN, forwards every connection to 127.0.0.1:BACKEND,
and appends to LOG `<n> +` when connection n opens and, once the server has
closed it, what the client sent, byte for byte: `<n> <escaped bytes>`, where
CR, LF, TAB and backslash are written as \\r \\n \\t \\\\ and any other
non-printable byte as \\xHH. The record is written before the client sees the
connection end, so a client that reads to the end finds it in the log.

Usage: wire-relay.py LISTEN BACKEND LOG
"""
import socket
import sys
import threading

# The shared module is read from this directory, with no __pycache__ left in it.
sys.dont_write_bytecode = True
from wirelog import escape  # noqa: E402

LOCK = threading.Lock()
COUNTER = [0]


def pump(src, dst, record):
    try:
        while True:
            data = src.recv(65536)
            if not data:
                break
            if record is not None:
                record.extend(data)
            dst.sendall(data)
    except OSError:
        pass
    finally:
        try:
            dst.shutdown(socket.SHUT_WR)
        except OSError:
            pass


def serve(client, n, backend_port, log_path):
    try:
        upstream = socket.create_connection(("127.0.0.1", backend_port), timeout=10)
        upstream.settimeout(None)
    except OSError:
        client.close()
        return
    record = bytearray()
    up = threading.Thread(target=pump, args=(client, upstream, record))
    up.start()
    try:
        while True:
            data = upstream.recv(65536)
            if not data:
                break
            client.sendall(data)
    except OSError:
        pass
    # The server has closed: what the client sent is complete. Write it down
    # before the client can see the end of the connection.
    if record:
        with LOCK, open(log_path, "a", encoding="ascii") as log:
            log.write("%d %s\n" % (n, escape(bytes(record))))
    try:
        client.shutdown(socket.SHUT_WR)
    except OSError:
        pass
    up.join(timeout=10)
    client.close()
    upstream.close()


def main():
    listen, backend, log_path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", listen))
    srv.listen(16)
    while True:
        client, _ = srv.accept()
        with LOCK:
            COUNTER[0] += 1
            n = COUNTER[0]
            with open(log_path, "a", encoding="ascii") as log:
                log.write("%d +\n" % n)
        threading.Thread(target=serve, args=(client, n, backend, log_path), daemon=True).start()


if __name__ == "__main__":
    main()
