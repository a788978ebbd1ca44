# A child that speaks systemd's notify protocol for the tests: it sends the datagrams the
# test writes as files cmd-0, cmd-1, ... of its directory, in order; with a beat period it
# sends WATCHDOG=1 that often until the file "silent" appears; it notes each SIGHUP in the
# file "hup"; it writes its NOTIFY_SOCKET and WATCHDOG_USEC to "socket" and "watchdog".
import os, signal, socket, sys, time

directory = sys.argv[1]
beat = float(sys.argv[2]) if len(sys.argv) > 2 else 0.0
address = os.environ["NOTIFY_SOCKET"]


def write(name, text):
    with open(os.path.join(directory, name + ".tmp"), "w") as out:
        out.write(text)
    os.rename(os.path.join(directory, name + ".tmp"), os.path.join(directory, name))


write("watchdog", os.environ.get("WATCHDOG_USEC", ""))
write("socket", address)
target = "\0" + address[1:] if address.startswith("@") else address
sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
hups = []
signal.signal(signal.SIGHUP, lambda *ignored: hups.append(1))
sent = 0
last_beat = 0.0
while True:
    command = os.path.join(directory, "cmd-%d" % sent)
    if os.path.exists(command):
        with open(command) as text:
            sock.sendto(text.read().encode(), target)
        sent += 1
        continue
    if hups:
        hups.clear()
        with open(os.path.join(directory, "hup"), "a") as out:
            out.write("HUP\n")
    if beat and time.monotonic() - last_beat >= beat and not os.path.exists(os.path.join(directory, "silent")):
        sock.sendto(b"WATCHDOG=1", target)
        last_beat = time.monotonic()
    time.sleep(0.02)
