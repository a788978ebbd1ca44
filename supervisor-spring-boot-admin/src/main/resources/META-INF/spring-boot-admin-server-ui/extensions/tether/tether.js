/*
 * Tether's console in Spring Boot Admin: a "Children" view per instance (state, probes,
 * resources, actions, output) and a fleet view of every instance's children.
 *
 * Why a plain script with render functions: the server loads an extension as a classic
 * script and gives it its Vue as a global, so no build step (and no Node) is needed to
 * ship it. Only the runtime of Vue is there (no template compiler): hence h().
 */
/* global SBA, Vue */
(function () {
  'use strict';

  const { h, ref, computed, watch, nextTick, onMounted, onBeforeUnmount, defineComponent } = Vue;

  const STATES = ['STARTING', 'RUNNING', 'BACKOFF', 'STOPPING', 'STOPPED', 'EXITED', 'FAILED'];
  const ACTIONS = ['start', 'stop', 'restart'];
  const REFRESH_MILLIS = 2000;
  const FLEET_REFRESH_MILLIS = 5000;
  const LOG_LINES = [50, 200, 1000];
  // Why: each view shows its own errors in place; the server's toasts would repeat at every poll.
  const QUIET = { suppressToast: true };

  // ---- formatting ----

  function dash(value) {
    return value === null || value === undefined || value === '' ? '—' : String(value);
  }

  function duration(seconds) {
    if (!seconds) {
      return '—';
    }
    const d = Math.floor(seconds / 86400);
    const hours = Math.floor((seconds % 86400) / 3600);
    const m = Math.floor((seconds % 3600) / 60);
    const s = seconds % 60;
    return (d ? d + 'd ' : '') + (d || hours ? hours + 'h ' : '') + (d || hours || m ? m + 'm ' : '') + s + 's';
  }

  function bytes(value) {
    if (value === null || value === undefined) {
      return '—';
    }
    const units = ['B', 'KB', 'MB', 'GB', 'TB'];
    let scaled = value;
    let unit = 0;
    while (scaled >= 1024 && unit < units.length - 1) {
      scaled /= 1024;
      unit++;
    }
    return (unit ? scaled.toFixed(1) : scaled) + ' ' + units[unit];
  }

  function time(iso) {
    return iso ? new Date(iso).toLocaleTimeString() : '';
  }

  function lastExit(exit) {
    if (!exit) {
      return '—';
    }
    let what = 'unknown';
    if (exit.signal !== null && exit.signal !== undefined) {
      what = 'signal ' + exit.signal + (exit.killedBy ? ' (' + exit.killedBy + ')' : '');
    }
    else if (exit.code !== null && exit.code !== undefined) {
      what = 'code ' + exit.code;
    }
    return what + ' at ' + time(exit.at);
  }

  function probe(result) {
    if (!result) {
      return '—';
    }
    const verdict = result.passed ? 'passed' : 'failed' + (result.failures > 1 ? ' ×' + result.failures : '');
    return verdict + (result.detail ? ': ' + result.detail : '');
  }

  function resources(child) {
    const r = child.resources;
    if (!r) {
      return '—';
    }
    return bytes(r.memoryBytes) + ' · ' + Number(r.cpuSeconds || 0).toFixed(1) + ' s CPU · '
        + r.processes + ' proc' + (r.descriptors !== null && r.descriptors !== undefined ? ' · ' + r.descriptors + ' fd' : '');
  }

  function mcp(child) {
    const session = child.details && child.details.mcp;
    if (!session) {
      return '—';
    }
    return [session.transport, session.session, session.tools !== undefined ? session.tools + ' tools' : null]
      .filter((part) => part !== null && part !== undefined)
      .join(' · ');
  }

  function failure(error) {
    if (error && error.response) {
      const body = error.response.data;
      const message = body && typeof body === 'object' ? (body.message || body.error) : null;
      return 'HTTP ' + error.response.status + (message ? ': ' + message : '');
    }
    return error && error.message ? error.message : String(error);
  }

  function childPath(name) {
    return 'actuator/children/' + encodeURIComponent(name);
  }

  function instanceLabel(instance) {
    const registration = instance.registration || {};
    return (registration.name || instance.id) + ' (' + (registration.serviceUrl || registration.managementUrl || instance.id) + ')';
  }

  // ---- shared parts ----

  /** Calls poll now and every period while the component is shown. */
  function usePolling(poll, period) {
    let timer = null;
    onMounted(() => {
      poll();
      timer = setInterval(poll, period);
    });
    onBeforeUnmount(() => clearInterval(timer));
  }

  function stateBadge(state) {
    return h('span', { class: 'tether-state tether-state--' + String(state).toLowerCase() }, state);
  }

  /** Counts by state, each a button that filters the table on that state. */
  function stateCounts(rows, filter) {
    const counts = {};
    rows.forEach((row) => {
      counts[row.child.state] = (counts[row.child.state] || 0) + 1;
    });
    return h('div', { class: 'tether-counts' }, [
      h('button', {
        class: ['tether-count', filter.value === '' ? 'is-active' : ''],
        'data-state': '',
        onClick: () => (filter.value = ''),
      }, 'All ' + rows.length),
      ...STATES.filter((state) => counts[state]).map((state) => h('button', {
        class: ['tether-count', 'tether-state--' + state.toLowerCase(), filter.value === state ? 'is-active' : ''],
        'data-state': state,
        onClick: () => (filter.value = filter.value === state ? '' : state),
      }, state + ' ' + counts[state])),
    ]);
  }

  /**
   * A table sorted by a column the user clicks, of rows filtered by state. Each column
   * has a key, a label, a value to sort by and a cell renderer.
   */
  function useSortedRows(rows, columns, filter) {
    const sort = ref({ key: columns[0].key, ascending: true });
    const shown = computed(() => {
      const column = columns.find((c) => c.key === sort.value.key);
      const direction = sort.value.ascending ? 1 : -1;
      return rows.value
        .filter((row) => !filter.value || row.child.state === filter.value)
        .slice()
        .sort((a, b) => {
          const x = column.sortBy(a);
          const y = column.sortBy(b);
          if (x === y) {
            // Why: rows that tie (the children of one instance) keep one order between polls.
            return a.child.name < b.child.name ? -1 : (a.child.name > b.child.name ? 1 : 0);
          }
          if (x === null || x === undefined) {
            return 1;
          }
          if (y === null || y === undefined) {
            return -1;
          }
          return (x < y ? -1 : 1) * direction;
        });
    });
    function render(rowKey, extraRow) {
      return h('table', { class: 'tether-table' }, [
        h('thead', h('tr', columns.map((column) => h('th', {
          'data-sort': column.key,
          class: sort.value.key === column.key ? 'is-sorted' : '',
          onClick: () => {
            sort.value = { key: column.key, ascending: sort.value.key === column.key ? !sort.value.ascending : true };
          },
        }, column.label + (sort.value.key === column.key ? (sort.value.ascending ? ' ▲' : ' ▼') : ''))))),
        h('tbody', shown.value.flatMap((row) => [
          h('tr', { key: rowKey(row), 'data-child': row.child.name, 'data-state': row.child.state },
            columns.map((column) => h('td', { class: 'tether-col-' + column.key }, column.cell(row)))),
          ...(extraRow ? extraRow(row) : []),
        ])),
      ]);
    }
    return render;
  }

  function column(key, label, sortBy, cell) {
    return { key, label, sortBy, cell: cell || ((row) => dash(sortBy(row))) };
  }

  const STATE_COLUMN = column('state', 'State', (row) => STATES.indexOf(row.child.state),
    (row) => stateBadge(row.child.state));

  function stateFilter(filter) {
    return h('label', { class: 'tether-filter' }, [
      'State ',
      h('select', {
        value: filter.value,
        onChange: (event) => (filter.value = event.target.value),
      }, [h('option', { value: '' }, 'all'), ...STATES.map((state) => h('option', { value: state }, state))]),
    ]);
  }

  // ---- the child's output ----

  const ChildLog = defineComponent({
    props: { instance: { type: Object, required: true }, name: { type: String, required: true } },
    emits: ['close'],
    setup(props, { emit }) {
      const lines = ref(LOG_LINES[0]);
      const follow = ref(true);
      const text = ref('');
      const error = ref(null);
      const pre = ref(null);

      async function load() {
        try {
          const response = await props.instance.axios.get('actuator/childlog/' + encodeURIComponent(props.name), {
            ...QUIET,
            params: { lines: lines.value },
            headers: { Accept: 'text/plain' },
            responseType: 'text',
          });
          text.value = response.data;
          error.value = null;
          if (follow.value) {
            await nextTick();
            if (pre.value) {
              pre.value.scrollTop = pre.value.scrollHeight;
            }
          }
        }
        catch (e) {
          error.value = e.response && e.response.status === 404
            ? 'No output: the child has written nothing yet, or its log file is off.'
            : failure(e);
        }
      }

      // Why no immediate load of its own: the first poll loads, following or not.
      usePolling(() => (follow.value || !text.value) && load(), REFRESH_MILLIS);
      watch(() => [props.name, lines.value], load);

      return () => h('section', { class: 'tether-log', 'data-child': props.name }, [
        h('header', [
          h('strong', 'Output of ' + props.name),
          h('label', ['Last ', h('select', {
            class: 'tether-log-lines',
            value: lines.value,
            onChange: (event) => (lines.value = Number(event.target.value)),
          }, LOG_LINES.map((n) => h('option', { value: n }, n))), ' lines']),
          h('label', [h('input', {
            type: 'checkbox',
            class: 'tether-log-follow',
            checked: follow.value,
            onChange: (event) => (follow.value = event.target.checked),
          }), ' follow']),
          h('button', { class: 'tether-log-close', onClick: () => emit('close') }, 'Close'),
        ]),
        error.value ? h('p', { class: 'tether-error' }, error.value) : null,
        h('pre', { class: 'tether-log-text', ref: pre }, text.value),
      ]);
    },
  });

  // ---- one instance's children ----

  const ChildrenView = defineComponent({
    props: { instance: { type: Object, required: true }, application: { type: Object, default: null } },
    setup(props) {
      const snapshot = ref(null);
      const error = ref(null);
      const filter = ref('');
      // Whether the instance takes start, stop and restart: null until it said, then
      // { allowed, reason }.
      const writes = ref(null);
      const confirming = ref(null);
      const answer = ref(null);
      const logOf = ref(null);
      const rows = computed(() => (snapshot.value ? snapshot.value.children : []).map((child) => ({ child })));
      const hasLog = computed(() => props.instance.hasEndpoint('childlog'));

      async function refresh() {
        try {
          snapshot.value = (await props.instance.axios.get('actuator/children', QUIET)).data;
          error.value = null;
          if (writes.value === null && snapshot.value.children.length > 0) {
            await checkWrites(snapshot.value.children[0].name);
          }
        }
        catch (e) {
          error.value = failure(e);
        }
      }

      // Why OPTIONS: the endpoint maps POST only where its access allows writes, and the
      // answer's Allow header says so without acting on a child (the server's own
      // environment view asks the same way).
      async function checkWrites(name) {
        try {
          const allow = String((await props.instance.axios.options(childPath(name), QUIET)).headers.allow || '');
          writes.value = allow.includes('POST')
            ? { allowed: true, reason: null }
            : { allowed: false, reason: 'Actions are off: this instance\'s children endpoint is read-only '
                + '(management.endpoint.children.access: unrestricted enables them).' };
        }
        catch (e) {
          writes.value = { allowed: false, reason: 'Actions are off: the instance did not say whether it allows them ('
              + failure(e) + ').' };
        }
      }

      async function act(name, action) {
        confirming.value = null;
        answer.value = { name, action, pending: true, text: action + ' ' + name + '…' };
        try {
          const response = await props.instance.axios.post(childPath(name), { action }, QUIET);
          const child = response.data;
          answer.value = { name, action, ok: true, text: action + ' ' + name + ': HTTP ' + response.status + ', now '
              + child.state + (child.pid ? ', pid ' + child.pid : '') };
          await refresh();
        }
        catch (e) {
          const status = e.response && e.response.status;
          if (status === 403 || status === 405) {
            writes.value = { allowed: false, reason: 'Actions are off: the instance refused ' + action + ' (HTTP '
                + status + ').' };
          }
          answer.value = { name, action, ok: false, text: action + ' ' + name + ' failed: ' + failure(e) };
        }
      }

      usePolling(refresh, REFRESH_MILLIS);

      const columns = [
        column('name', 'Name', (row) => row.child.name, (row) => h('strong', row.child.name)),
        column('kind', 'Kind', (row) => row.child.kind),
        STATE_COLUMN,
        column('pid', 'PID', (row) => row.child.pid),
        column('shepherd', 'Shepherd', (row) => row.child.shepherdPid),
        column('uptime', 'Uptime', (row) => row.child.uptimeSeconds, (row) => duration(row.child.uptimeSeconds)),
        column('restarts', 'Restarts', (row) => row.child.restarts),
        column('exit', 'Last exit', (row) => (row.child.lastExit ? row.child.lastExit.at : null),
          (row) => lastExit(row.child.lastExit)),
        column('error', 'Last error', (row) => row.child.lastError),
        column('readiness', 'Readiness', (row) => probe(row.child.readiness)),
        column('liveness', 'Liveness', (row) => probe(row.child.liveness)),
        column('resources', 'Resources', (row) => (row.child.resources ? row.child.resources.memoryBytes : null),
          (row) => resources(row.child)),
        column('mcp', 'MCP', (row) => mcp(row.child)),
        column('actions', '', (row) => row.child.name, (row) => h('span', { class: 'tether-actions' }, [
          ...(writes.value && writes.value.allowed ? ACTIONS.map((action) => h('button', {
            class: 'tether-action',
            'data-action': action,
            onClick: () => (confirming.value = { name: row.child.name, action }),
          }, action)) : []),
          hasLog.value ? h('button', {
            class: 'tether-log-open',
            onClick: () => (logOf.value = row.child.name),
          }, 'log') : null,
        ])),
      ];
      const table = useSortedRows(rows, columns, filter);

      function confirmation() {
        const asked = confirming.value;
        return h('div', { class: 'tether-confirm', role: 'alertdialog' }, [
          h('span', asked.action.charAt(0).toUpperCase() + asked.action.slice(1) + ' ' + asked.name + ' on '
              + instanceLabel(props.instance) + '?'),
          h('button', { class: 'tether-confirm-yes', onClick: () => act(asked.name, asked.action) }, asked.action),
          h('button', { class: 'tether-confirm-no', onClick: () => (confirming.value = null) }, 'cancel'),
        ]);
      }

      return () => h('div', { class: 'tether tether-children' }, [
        h('div', { class: 'tether-toolbar' }, [
          snapshot.value ? stateCounts(rows.value, filter) : null,
          stateFilter(filter),
        ]),
        snapshot.value ? h('p', { class: 'tether-facts' }, 'Installation ' + snapshot.value.installationId
            + ' · parent-death ' + snapshot.value.parentDeathSignal + ' · descendants ' + dash(snapshot.value.descendants)
            + ' · backend ' + dash(snapshot.value.nativeBackend)) : null,
        error.value ? h('p', { class: 'tether-error' }, 'The children endpoint did not answer: ' + error.value) : null,
        writes.value && !writes.value.allowed ? h('p', { class: 'tether-writes-off' }, writes.value.reason) : null,
        hasLog.value ? null : h('p', { class: 'tether-log-off' },
          'Output is not shown: this instance does not expose the childlog endpoint.'),
        confirming.value ? confirmation() : null,
        answer.value ? h('p', {
          class: ['tether-answer', answer.value.pending ? '' : (answer.value.ok ? 'is-ok' : 'is-failed')],
        }, answer.value.text) : null,
        snapshot.value ? table((row) => row.child.name) : h('p', 'Loading…'),
        logOf.value ? h(ChildLog, {
          instance: props.instance,
          name: logOf.value,
          onClose: () => (logOf.value = null),
        }) : null,
      ]);
    },
  });

  // ---- every instance's children ----

  const FleetView = defineComponent({
    props: { applications: { type: Array, default: () => [] } },
    setup(props) {
      const answers = ref({});
      const filter = ref('');
      const instances = computed(() => props.applications
        .flatMap((application) => application.instances)
        .filter((instance) => instance.hasEndpoint('children')));

      async function refresh() {
        const next = {};
        await Promise.all(instances.value.map(async (instance) => {
          try {
            next[instance.id] = { children: (await instance.axios.get('actuator/children', QUIET)).data.children };
          }
          catch (e) {
            next[instance.id] = { error: failure(e), children: [] };
          }
        }));
        answers.value = next;
      }

      usePolling(refresh, FLEET_REFRESH_MILLIS);

      const rows = computed(() => instances.value.flatMap((instance) => {
        const answer = answers.value[instance.id];
        return answer ? answer.children.map((child) => ({ instance, child })) : [];
      }));
      const failed = computed(() => instances.value.filter((instance) => answers.value[instance.id]
          && answers.value[instance.id].error));

      const table = useSortedRows(rows, [
        column('instance', 'Instance', (row) => instanceLabel(row.instance),
          (row) => h('a', { href: 'instances/' + row.instance.id + '/children' }, instanceLabel(row.instance))),
        column('name', 'Child', (row) => row.child.name, (row) => h('strong', row.child.name)),
        column('kind', 'Kind', (row) => row.child.kind),
        STATE_COLUMN,
        column('pid', 'PID', (row) => row.child.pid),
        column('uptime', 'Uptime', (row) => row.child.uptimeSeconds, (row) => duration(row.child.uptimeSeconds)),
        column('restarts', 'Restarts', (row) => row.child.restarts),
        column('error', 'Last error', (row) => row.child.lastError),
      ], filter);

      return () => h('div', { class: 'tether tether-fleet' }, [
        h('h1', 'Children of every instance'),
        h('p', { class: 'tether-facts' }, instances.value.length + ' instance(s) with a children endpoint'),
        h('div', { class: 'tether-toolbar' }, [stateCounts(rows.value, filter), stateFilter(filter)]),
        ...failed.value.map((instance) => h('p', { class: 'tether-error' },
          instanceLabel(instance) + ' did not answer: ' + answers.value[instance.id].error)),
        table((row) => row.instance.id + '/' + row.child.name),
      ]);
    },
  });

  SBA.use({
    install({ viewRegistry, i18n }) {
      viewRegistry.setGroupIcon('tether', '<svg xmlns="http://www.w3.org/2000/svg" class="h-5 mr-3" viewBox="0 0 24 24" '
          + 'fill="none" stroke="currentColor" stroke-width="2"><circle cx="12" cy="5" r="3"/><circle cx="5" cy="19" r="3"/>'
          + '<circle cx="19" cy="19" r="3"/><path d="M12 8v4M12 12l-5 4.5M12 12l5 4.5"/></svg>');
      viewRegistry.addView({
        name: 'instances/tether-children',
        parent: 'instances',
        path: 'children',
        component: ChildrenView,
        label: 'tether.children',
        group: 'tether',
        order: 950,
        isEnabled: ({ instance }) => instance.hasEndpoint('children'),
      });
      viewRegistry.addView({
        name: 'tether-fleet',
        path: '/tether',
        component: FleetView,
        label: 'tether.fleet',
        order: 950,
      });
      i18n.mergeLocaleMessage('en', { tether: { children: 'Children', fleet: 'Children' } });
    },
  });
})();
