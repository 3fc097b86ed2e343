// Which TCP connections belong to which processes, from Linux /proc: the local ports of the sockets
// the given PIDs hold open. A database server reports each session's client port (MariaDB's
// processlist HOST "host:port", PostgreSQL's client_port), so a connection killer can tell the role
// processes' sessions from its own test process's pools without any help from the product (MariaDB
// shows connection attributes only with performance_schema on, which the shared server has off).
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

function socketInodes(pid: number): Set<string> {
  const out = new Set<string>();
  let fds: string[] = [];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return out; // exited meanwhile: it holds nothing
  }
  for (const fd of fds) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) out.add(m[1]!);
    } catch {
      // closed between the listing and the read
    }
  }
  return out;
}

/** Local TCP ports (IPv4 and IPv6) of the sockets the processes `pids` hold open now. */
export function localPortsOf(pids: readonly number[]): Set<number> {
  const ports = new Set<number>();
  for (const pid of pids) {
    const inodes = socketInodes(pid);
    if (inodes.size === 0) continue;
    for (const table of ['tcp', 'tcp6']) {
      let text = '';
      try {
        text = readFileSync(`/proc/${pid}/net/${table}`, 'utf8');
      } catch {
        continue;
      }
      // "sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode ..."
      for (const line of text.split('\n').slice(1)) {
        const cols = line.trim().split(/\s+/);
        if (cols.length > 9 && inodes.has(cols[9]!)) ports.add(parseInt(cols[1]!.split(':')[1]!, 16));
      }
    }
  }
  return ports;
}

/** The client port of a MariaDB processlist HOST ("127.0.0.1:54321", "localhost:54321"); undefined for a socket file. */
export function clientPort(host: string | null): number | undefined {
  const m = /:(\d+)$/.exec(host ?? '');
  return m ? Number(m[1]) : undefined;
}
