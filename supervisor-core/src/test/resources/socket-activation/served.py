"""
A server that serves on the listening socket it is handed (socket activation):
descriptor 3, checked against LISTEN_FDS and LISTEN_PID as sd_listen_fds() checks them.
With "--bind <port>" it binds the port itself instead, the same server without socket
activation. It speaks just enough HTTP/1.0: every request is answered with the pid that
served it, "GET /health" with 500 while a file "unhealthy-<its pid>" is in its working
directory. On SIGTERM it finishes the connection in hand and exits 0, leaving what waits
in the backlog to the next process.

Its readiness: it prints "serving" once it serves, after READY_AFTER seconds (0 by
default). While a file "refuse-to-start" is in its working directory it exits 3 at once;
while a file "hang-before-ready" is, it never gets ready (until SIGTERM); while a file
"say-serving-again" is, it prints "serving" again after each request it answers. Given a
NOTIFY_SOCKET it also says READY=1 when it serves, and WATCHDOG=1 twice per WATCHDOG_USEC.
"""
import os
import select
import signal
import socket
import sys
import threading
import time


def notify(message):
    path = os.environ.get('NOTIFY_SOCKET')
    if path:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as channel:
            channel.sendto(message, '\0' + path[1:] if path.startswith('@') else path)


def beat(period):
    while True:
        notify(b'WATCHDOG=1')
        time.sleep(period)


def listening():
    if sys.argv[1:2] == ['--bind']:
        server = socket.socket()
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind(('127.0.0.1', int(sys.argv[2])))
        server.listen(128)
        return server
    if os.environ.get('LISTEN_PID') != str(os.getpid()) or os.environ.get('LISTEN_FDS') != '1':
        sys.exit('not handed a socket: LISTEN_PID=%s LISTEN_FDS=%s, pid %d'
                 % (os.environ.get('LISTEN_PID'), os.environ.get('LISTEN_FDS'), os.getpid()))
    return socket.socket(fileno=3)


stopping = []
signal.signal(signal.SIGTERM, lambda *_: stopping.append(True))
if os.path.exists('refuse-to-start'):
    sys.exit(3)
server = listening()
time.sleep(float(os.environ.get('READY_AFTER', '0')))
while os.path.exists('hang-before-ready') and not stopping:
    time.sleep(0.05)
print('serving', flush=True)
notify(b'READY=1')
if os.environ.get('WATCHDOG_USEC'):
    threading.Thread(target=beat, args=(int(os.environ['WATCHDOG_USEC']) / 2e6,), daemon=True).start()
while not stopping:
    if select.select([server], [], [], 0.05)[0]:
        connection, _ = server.accept()
        with connection:
            request = b''
            while b'\r\n\r\n' not in request and len(request) < 4096:
                chunk = connection.recv(1024)
                if not chunk:
                    break
                request += chunk
            sick = request.startswith(b'GET /health') and os.path.exists('unhealthy-%d' % os.getpid())
            body = b'%d\n' % os.getpid()
            connection.sendall(b'HTTP/1.0 %s\r\nContent-Length: %d\r\n\r\n%s'
                               % (b'500 Unhealthy' if sick else b'200 OK', len(body), body))
        if os.path.exists('say-serving-again'):
            print('serving', flush=True)
