// The live pipeline: per domain and store the backlog (pending, failed, parked, dead-lettered, expired
// claims, oldest unsent age), projection lag, freshness and unresolved discrepancies, polled every few
// seconds and charted over the last minutes; below it the live stream of publication-state changes.
import { useState } from 'react';
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { request } from '../api/client';
import { ConsolePipelineDocument, type ConsolePipelineQuery } from '../api/generated';
import { clockTime, formatAge, formatLagMs } from '../lib/format';
import { appendSample, type Sample } from '../lib/history';
import { ErrorNote, FreshnessBadge } from '../ui/components';
import { useConsole } from '../ui/context';
import { usePolling } from '../ui/hooks';
import { LiveStream } from './LiveStream';

const POLL_MS = 2000;
const WINDOW_MS = 10 * 60 * 1000;
const COLORS: Record<string, string> = { fitness: '#1f6feb', orders: '#b35900' };

type Health = ConsolePipelineQuery['publicationHealth'][number];

function backlog(d: Health): number {
  return d.stores.reduce((n, s) => n + s.pending + s.failed + s.parked + s.deadLettered, 0);
}

function HistoryChart({ title, samples, series, unit }: { title: string; samples: Sample[]; series: string[]; unit: string }) {
  return (
    <figure className="chart" role="group" aria-label={`${title} over the last ${WINDOW_MS / 60000} minutes`} data-samples={samples.length}>
      <figcaption>{title}</figcaption>
      <ResponsiveContainer width="100%" height={200}>
        <LineChart data={samples} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="t" type="number" domain={['dataMin', 'dataMax']} tickFormatter={clockTime} scale="time" />
          <YAxis allowDecimals={false} unit={unit} width={70} />
          <Tooltip labelFormatter={(t) => clockTime(Number(t))} />
          <Legend />
          {series.map((s) => (
            <Line key={s} dataKey={s} name={s} stroke={COLORS[s] ?? '#555'} dot={false} isAnimationActive={false} connectNulls />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </figure>
  );
}

export function Pipeline() {
  const { session } = useConsole();
  const [backlogSamples, setBacklog] = useState<Sample[]>([]);
  const [lagSamples, setLag] = useState<Sample[]>([]);
  const health = usePolling(
    async () => {
      const r = await request(ConsolePipelineDocument, {}, session.token);
      const t = Date.now();
      setBacklog((s) => appendSample(s, { t, ...Object.fromEntries(r.publicationHealth.map((d) => [d.domain, backlog(d)])) }, WINDOW_MS));
      setLag((s) =>
        appendSample(
          s,
          {
            t,
            ...Object.fromEntries(r.publicationHealth.map((d) => [d.domain, d.projectionLagMs === null ? null : d.projectionLagMs / 1000])),
          },
          WINDOW_MS,
        ),
      );
      return r;
    },
    POLL_MS,
    'pipeline',
  );
  const data = health.data;
  const freshness = { fitness: data?.fitnessResults.freshness, orders: data?.orders.freshness };
  const domains = data?.publicationHealth.map((d) => d.domain) ?? [];
  return (
    <>
      <h1>Pipeline</h1>
      <ErrorNote error={health.error} what="Reading publication health" />
      <section aria-labelledby="domains-h">
        <h2 id="domains-h">Domains</h2>
        <div className="cards">
          {data?.publicationHealth.map((d) => (
            <article key={d.domain} className="card" aria-label={`Domain ${d.domain}`}>
              <h3>{d.domain}</h3>
              <dl className="facts">
                <dt>Projection lag</dt>
                <dd>{formatLagMs(d.projectionLagMs)}</dd>
                <dt>Unresolved discrepancies</dt>
                <dd>{d.unresolvedDiscrepancies ?? 'unknown'}</dd>
                <dt>Repairs awaiting verification</dt>
                <dd>{d.repairsAwaitingVerification ?? 'unknown'}</dd>
                <dt>Event schema</dt>
                <dd>{eventSchemaText(d.eventSchema)}</dd>
              </dl>
              {freshness[d.domain] ? <FreshnessBadge f={freshness[d.domain]!} label={`${d.domain} freshness`} /> : null}
            </article>
          ))}
        </div>
      </section>
      <section aria-labelledby="stores-h">
        <h2 id="stores-h">Stores</h2>
        <table>
          <caption className="visually-hidden">Publication backlog per domain and store</caption>
          <thead>
            <tr>
              <th scope="col">Domain</th>
              <th scope="col">Store</th>
              <th scope="col">Pending</th>
              <th scope="col">Failed</th>
              <th scope="col">Parked</th>
              <th scope="col">Dead-lettered</th>
              <th scope="col">Expired claims</th>
              <th scope="col">Oldest unsent</th>
            </tr>
          </thead>
          <tbody>
            {data?.publicationHealth.flatMap((d) =>
              d.stores.map((s) => (
                <tr key={`${d.domain}/${s.store}`} data-domain={d.domain} data-store={s.store}>
                  <td>{d.domain}</td>
                  <td>{s.store}</td>
                  <td className="num">{s.pending}</td>
                  <td className="num">{s.failed}</td>
                  <td className={`num${s.parked ? ' warn' : ''}`}>{s.parked}</td>
                  <td className={`num${s.deadLettered ? ' warn' : ''}`}>{s.deadLettered}</td>
                  <td className={`num${s.expiredClaims ? ' warn' : ''}`}>{s.expiredClaims}</td>
                  <td className="num">{formatAge(s.oldestUnsentAgeSeconds)}</td>
                </tr>
              )),
            )}
          </tbody>
        </table>
      </section>
      <section aria-labelledby="charts-h">
        <h2 id="charts-h">Last {WINDOW_MS / 60000} minutes</h2>
        <p className="muted small">Sampled every {POLL_MS / 1000} s while this page is open.</p>
        <div className="charts">
          <HistoryChart title="Backlog (pending + failed + parked + dead-lettered)" samples={backlogSamples} series={domains} unit="" />
          <HistoryChart title="Projection lag (seconds)" samples={lagSamples} series={domains} unit=" s" />
        </div>
      </section>
      <LiveStream />
    </>
  );
}

/** "writing v1 of v2 (readers agree on v1)": a rollout in progress reads as such (docs/upgrades.md). */
function eventSchemaText(e: { writing: number; newestKnown: number; readersAgree?: number | null } | null | undefined): string {
  if (!e) return 'unknown';
  const readers = e.readersAgree == null ? 'projector group not seen yet' : `readers agree on v${e.readersAgree}`;
  return `writing v${e.writing} of v${e.newestKnown} (${readers})`;
}
