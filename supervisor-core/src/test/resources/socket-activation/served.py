"""
A server that serves on the listening socket it is handed (socket activation):
descriptor 3, checked against LISTEN_FDS and LISTEN_PID as sd_listen_fds() checks them.
With "--bind <port>" it binds the port itself instead, the same server without socket
activation. Each connection gets one line, the pid that served it. On SIGTERM it
finishes the connection in hand and exits 0, leaving what waits in the backlog to the
next process.
"""
import os
import select
import signal
import socket
import sys


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
server = listening()
while not stopping:
    if select.select([server], [], [], 0.05)[0]:
        connection, _ = server.accept()
        with connection:
            connection.sendall(b'%d\n' % os.getpid())
