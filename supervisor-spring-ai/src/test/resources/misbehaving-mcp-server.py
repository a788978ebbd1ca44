"""An MCP server over stdio, in plain Python, that misbehaves on request: its tools
close its stdout while it runs on (hangup), write one line longer than any bound (flood),
or write lines that are not JSON-RPC (stray). It answers initialize, ping, tools/list and
tools/call; anything it writes to stderr is its log. Given a path that exists, it is its
next version: its tool pid is called pid-v2. With no-ping after it, it does not implement
ping. Its tool slow answers after 6 s; freeze never answers, nor reads anything again."""
import json
import os
import sys
import time

PID = "pid-v2" if len(sys.argv) > 1 and os.path.exists(sys.argv[1]) else "pid"
TOOLS = [{"name": name, "description": name, "inputSchema": {"type": "object", "properties": {}}}
         for name in (PID, "hangup", "flood", "stray", "slow", "freeze")]
NO_PING = len(sys.argv) > 2 and sys.argv[2] == "no-ping"


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def result(request, value):
    send({"jsonrpc": "2.0", "id": request["id"], "result": value})


def text(request, value):
    result(request, {"content": [{"type": "text", "text": value}], "isError": False})


print("misbehaving server ready", file=sys.stderr, flush=True)
for line in sys.stdin:
    request = json.loads(line)
    method = request.get("method")
    if "id" not in request:
        continue
    if method == "initialize":
        result(request, {"protocolVersion": request["params"]["protocolVersion"], "capabilities": {"tools": {}},
                         "serverInfo": {"name": "misbehaving", "version": "1.0"}})
    elif method == "ping" and not NO_PING:
        result(request, {})
    elif method == "tools/list":
        result(request, {"tools": TOOLS})
    elif method == "tools/call":
        tool = request["params"]["name"]
        if tool == PID:
            text(request, str(os.getpid()))
        elif tool == "hangup":
            # Closes stdout for good, and runs on without answering.
            sys.stdout.flush()
            os.close(1)
            print("stdout closed", file=sys.stderr, flush=True)
            while True:
                time.sleep(1)
        elif tool == "flood":
            # One line of 32 MB, written in pieces, without a line break until its end.
            piece = "x" * (1024 * 1024)
            for _ in range(32):
                sys.stdout.write(piece)
            sys.stdout.write("\n")
            sys.stdout.flush()
            while True:
                time.sleep(1)
        elif tool == "slow":
            time.sleep(6)
            text(request, "slow")
        elif tool == "freeze":
            while True:
                time.sleep(1)
        elif tool == "stray":
            for i in range(50):
                sys.stdout.write("\x1b[1A\x1b[2K FORGED admin login ok %d\n" % i)
            sys.stdout.flush()
            text(request, "stray")
    else:
        send({"jsonrpc": "2.0", "id": request["id"], "error": {"code": -32601, "message": "no " + method}})
