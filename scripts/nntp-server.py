#!/usr/bin/env python3
"""A small NNTP server (RFC 977 / RFC 3977 reader subset) for the test suite.

Serves the articles under SPOOL/<group>/<number> (each a full article with
headers), answers MODE READER, GROUP, ARTICLE, HEAD, BODY, STAT, LIST,
LIST ACTIVE, LISTGROUP, XOVER/OVER, DATE, HELP and QUIT, and appends every
command line it receives, escaped as wirelog.py writes bytes, to LOG as
`<connection> <line>`. Listens on 127.0.0.1 only.

Usage: nntp-server.py PORT SPOOL LOG
"""
import os
import socketserver
import sys
import threading
import time

# The shared module is read from this directory, with no __pycache__ left in it.
sys.dont_write_bytecode = True
from wirelog import escape  # noqa: E402

LOCK = threading.Lock()
COUNTER = [0]


def load(spool):
    groups, by_id = {}, {}
    for group in sorted(os.listdir(spool)):
        arts = {}
        for name in os.listdir(os.path.join(spool, group)):
            with open(os.path.join(spool, group, name), "rb") as f:
                raw = f.read().replace(b"\r\n", b"\n")
            head, _, body = raw.partition(b"\n\n")
            headers = {}
            for line in head.split(b"\n"):
                k, _, v = line.partition(b":")
                headers[k.strip().lower()] = v.strip()
            arts[int(name)] = (head, body, headers)
            by_id[headers[b"message-id"]] = (group, int(name))
        groups[group] = arts
    return groups, by_id


class Handler(socketserver.StreamRequestHandler):
    def send(self, line):
        self.wfile.write(line.encode() + b"\r\n")

    def block(self, data):
        for line in data.split(b"\n"):
            if line.startswith(b"."):
                line = b"." + line
            self.wfile.write(line + b"\r\n")
        self.wfile.write(b".\r\n")

    def handle(self):
        with LOCK:
            COUNTER[0] += 1
            self.n = COUNTER[0]
        self.group, self.current = None, None
        self.send("200 rfc1738 test news server ready, posting prohibited")
        while True:
            raw = self.rfile.readline(4096)
            if not raw:
                return
            with LOCK, open(self.server.log, "a", encoding="ascii") as log:
                log.write("%d %s\n" % (self.n, escape(raw)))
            words = raw.decode("latin-1").strip("\r\n").split(" ")
            verb, args = words[0].upper(), words[1:]
            if verb == "QUIT":
                self.send("205 closing connection")
                return
            getattr(self, "cmd_" + verb.lower(), self.unknown)(args)

    def unknown(self, args):
        self.send("500 command not recognized")

    def cmd_mode(self, args):
        self.send("201 reader mode, posting prohibited")

    def cmd_date(self, args):
        self.send("111 " + time.strftime("%Y%m%d%H%M%S", time.gmtime()))

    def cmd_help(self, args):
        self.send("100 help text follows")
        self.block(b"article group list listgroup xover quit")

    def cmd_list(self, args):
        if args and args[0].upper() not in ("ACTIVE",):
            self.send("503 unsupported list keyword")
            return
        self.send("215 list of newsgroups follows")
        lines = []
        for g, arts in self.server.groups.items():
            nums = sorted(arts) or [0]
            lines.append("%s %d %d n" % (g, nums[-1], nums[0]))
        self.block("\n".join(lines).encode())

    def cmd_group(self, args):
        arts = self.server.groups.get(args[0]) if args else None
        if arts is None:
            self.send("411 no such newsgroup")
            return
        nums = sorted(arts)
        self.group, self.current = args[0], nums[0] if nums else None
        self.send("211 %d %d %d %s" % (len(nums), nums[0], nums[-1], args[0]))

    def cmd_listgroup(self, args):
        if args:
            self.cmd_group(args[:1])
            if self.group != args[0]:
                return
        elif self.group is None:
            self.send("412 no newsgroup selected")
            return
        self.send("211 article numbers follow")
        self.block("\n".join(str(n) for n in sorted(self.server.groups[self.group])).encode())

    def cmd_xover(self, args):
        if self.group is None:
            self.send("412 no newsgroup selected")
            return
        arts = self.server.groups[self.group]
        self.send("224 overview information follows")
        lines = []
        for n in sorted(arts):
            h = arts[n][2]
            fields = [str(n)] + [h.get(k, b"").decode("latin-1") for k in
                                 (b"subject", b"from", b"date", b"message-id", b"references")]
            fields += [str(len(arts[n][1])), str(arts[n][1].count(b"\n"))]
            lines.append("\t".join(fields))
        self.block("\n".join(lines).encode())

    cmd_over = cmd_xover

    def find(self, args):
        if args and args[0].startswith("<"):
            hit = self.server.by_id.get(args[0].encode())
            if hit is None:
                self.send("430 no such article")
                return None
            return hit[1], args[0], self.server.groups[hit[0]][hit[1]]
        if self.group is None:
            self.send("412 no newsgroup selected")
            return None
        n = int(args[0]) if args else self.current
        art = self.server.groups[self.group].get(n)
        if art is None:
            self.send("423 no such article number in this group")
            return None
        self.current = n
        return n, art[2][b"message-id"].decode("latin-1"), art

    def cmd_article(self, args):
        hit = self.find(args)
        if hit:
            self.send("220 %d %s article follows" % (hit[0], hit[1]))
            self.block(hit[2][0] + b"\n\n" + hit[2][1].rstrip(b"\n"))

    def cmd_head(self, args):
        hit = self.find(args)
        if hit:
            self.send("221 %d %s head follows" % (hit[0], hit[1]))
            self.block(hit[2][0])

    def cmd_body(self, args):
        hit = self.find(args)
        if hit:
            self.send("222 %d %s body follows" % (hit[0], hit[1]))
            self.block(hit[2][1].rstrip(b"\n"))

    def cmd_stat(self, args):
        hit = self.find(args)
        if hit:
            self.send("223 %d %s" % (hit[0], hit[1]))


class Server(socketserver.ThreadingTCPServer):
    allow_reuse_address = True
    daemon_threads = True


def main():
    port, spool, log = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    server = Server(("127.0.0.1", port), Handler)
    server.groups, server.by_id = load(spool)
    server.log = log
    server.serve_forever()


if __name__ == "__main__":
    main()
