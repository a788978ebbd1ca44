#!/bin/sh
# Shows Tether's promise with the sample app:
#   1. start the app and its two children;
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
until [ "$(children_running)" = 2 ]; do sleep 0.5; done
pids=$(curl -s "$url" | grep -o '"pid":[0-9]*' | cut -d: -f2 | tr '\n' ' ')
echo "app pid $app, children: $pids"
ps -o pid,pgid,sid,args -p "$(echo $pids | tr ' ' ',')"

echo "== kill -9 $app"
kill -9 "$app"
wait "$app" 2>/dev/null || true
sleep 0.1
echo "children still alive after 100 ms (zombies waiting for init count as dead):"
ps -o pid,stat,args -p "$(echo $pids | tr ' ' ',')" | awk 'NR == 1 || $2 !~ /Z/' || true

echo "== starting it again"
java -jar "$jar" > "${TMPDIR:-/tmp}/tether-demo-2.log" 2>&1 &
app=$!
until curl -sf "$url" 2>/dev/null | grep -q '"reconciliation":{'; do sleep 0.5; done
echo "reconciliation report:"
curl -s "$url" | grep -o '"reconciliation":{[^}]*}'
kill -TERM "$app"
wait "$app" 2>/dev/null || true
echo "== stopped; nothing of the sample is left running"
