// The order report per day (and currency) or per currency over a window of UTC days, as a chart with the
// exact values, its freshness badge and detail sentence.
import { useState, type FormEvent } from 'react';
import { ApiError, request } from '../api/client';
import { ConsoleOrderReportDocument, type ConsoleOrderReportQuery, type OrderReportGroupBy } from '../api/generated';
import { utcInputToIso } from '../lib/format';
import { orderChartRows } from '../lib/reportRows';
import { ErrorNote, Field, Select } from '../ui/components';
import { useConsole } from '../ui/context';
import { useAction } from '../ui/hooks';
import { COUNT_COLOR, ReportChart, ReportResult } from './ReportChart';

function day(offset: number): string {
  return new Date(Date.now() + offset * 86400000).toISOString().slice(0, 10);
}

export function OrderReport() {
  const { session } = useConsole();
  const [from, setFrom] = useState(day(-6));
  const [to, setTo] = useState(day(1));
  const [groupBy, setGroupBy] = useState<OrderReportGroupBy>('DAY');
  const [report, setReport] = useState<ConsoleOrderReportQuery['orderReport']>();
  const action = useAction();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    await action.run(async () => {
      const f = utcInputToIso(from);
      const t = utcInputToIso(to);
      if (!f || !t) throw new ApiError('VALIDATION_FAILED', 'Both dates are needed.');
      setReport((await request(ConsoleOrderReportDocument, { from: f, to: t, groupBy }, session.token)).orderReport);
    });
  };
  const rows = report ? orderChartRows(report.groups, report.groupBy) : [];
  return (
    <section aria-labelledby="ord-h" className="report">
      <h2 id="ord-h">Orders</h2>
      <form className="toolbar" onSubmit={(e) => void submit(e)} aria-label="Order report">
        <Field label="From (UTC day, inclusive)">
          {(id) => <input id={id} type="date" value={from} onChange={(e) => setFrom(e.target.value)} required />}
        </Field>
        <Field label="To (UTC day, exclusive)">
          {(id) => <input id={id} type="date" value={to} onChange={(e) => setTo(e.target.value)} required />}
        </Field>
        <Select
          label="Group by"
          value={groupBy}
          options={[
            ['DAY', 'day (and currency)'],
            ['CURRENCY', 'currency'],
            ['CHANNEL', 'sales channel (and currency)'],
          ]}
          onChange={setGroupBy}
        />
        <button type="submit" className="primary">
          Show order report
        </button>
      </form>
      <ErrorNote error={action.error} what="The order report" />
      {report ? (
        <ReportResult
          freshness={report.freshness}
          empty={rows.length === 0 ? 'No orders in this window.' : undefined}
          chart={
            <ReportChart
              label={`Order report per ${report.groupBy.toLowerCase()}`}
              caption={`Order totals (left axis, never summed across currencies) and order counts (right axis) per ${report.groupBy.toLowerCase()}`}
              rows={rows}
              bars={[{ key: 'total', name: 'total', color: '#1f6feb' }]}
              line={{ key: 'orderCount', name: 'orders', color: COUNT_COLOR }}
            />
          }
        >
          <table className="compact">
            <caption className="visually-hidden">Order report values (exact)</caption>
            <thead>
              <tr>
                <th scope="col">{{ DAY: 'Day', CURRENCY: 'Currency', CHANNEL: 'Channel' }[report.groupBy]}</th>
                <th scope="col">Currency</th>
                <th scope="col">Orders</th>
                <th scope="col">Units</th>
                <th scope="col">Total</th>
                <th scope="col">Average total</th>
              </tr>
            </thead>
            <tbody>
              {report.groups.map((g) => (
                <tr key={`${g.key}-${g.currency}`}>
                  <td>{g.key}</td>
                  <td>{g.currency}</td>
                  <td className="num">{g.orderCount}</td>
                  <td className="num">{g.itemCount}</td>
                  <td className="num">{g.total}</td>
                  <td className="num">{g.averageTotal}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {report.suppressedGroups > 0 ? (
            <p className="muted">
              {report.suppressedGroups} group(s) with fewer people than the smallest group analysts may see are not shown.
            </p>
          ) : null}
        </ReportResult>
      ) : null}
    </section>
  );
}
