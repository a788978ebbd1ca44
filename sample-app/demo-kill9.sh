#!/bin/sh
# Shows Tether's promise with the sample app:
#   1. start the app and its three children (an agent and two MCP servers);
#   2. kill -9 the app: its children are gone within milliseconds;
#   3. start it again: /actuator/children shows the reconciliation of what the killed run left in its registry.
# Needs curl. Run from anywhere: sample-app/demo-kill9.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
"$here/../mvnw" -q -pl sample-app -am package -DskipTests -DskipITs
jar="$here/target/sample-app-0.1.0-SNAPSHOT.jar"
url=http://localhost:${PORT:-8080}/actuator/children
cd "$here"

children_running() {
  curl -sf "$url" 2>/dev/null | grep -o '"state":"RUNNING"' | wc -l
}

echo "== starting the sample app"
java -jar "$jar" > "${TMPDIR:-/tmp}/tether-demo-1.log" 2>&1 &
app=$!
until [ "$(children_running)" = 3 ]; do sleep 0.5; done
pids=$(curl -s "$url" | grep -o '"pid":[0-9]*' | cut -d: -f2 | tr '\n' ' ')
echo "app pid $app, children: $pids"
ps -o pid,pgid,sid,args -p "$(echo $pids | tr ' ' ',')"

echo "== kill -9 $app"
kill -9 "$app"
wait "$app" 2>/dev/null || true
# The kernel sends each child SIGTERM at once; the sample's children are JVMs, which take a moment to exit.
alive() {
  ps -o stat= -p "$(echo $pids | tr ' ' ',')" 2>/dev/null | grep -vc Z || true
}
waited=0
while [ "$(alive)" != 0 ] && [ $waited -lt 100 ]; do sleep 0.05; waited=$((waited + 1)); done
if [ "$(alive)" = 0 ]; then
  echo "all children gone within $((waited * 50 + 50)) ms of the kill"
else
  echo "children still alive after 5 s:"; ps -o pid,stat,args -p "$(echo $pids | tr ' ' ',')"
fi

echo "== starting it again"
java -jar "$jar" > "${TMPDIR:-/tmp}/tether-demo-2.log" 2>&1 &
app=$!
until curl -sf "$url" 2>/dev/null | grep -q '"reconciliation":{'; do sleep 0.5; done
echo "reconciliation report:"
curl -s "$url" | grep -o '"reconciliation":{[^}]*}'
kill -TERM "$app"
wait "$app" 2>/dev/null || true
echo "== stopped; nothing of the sample is left running"
