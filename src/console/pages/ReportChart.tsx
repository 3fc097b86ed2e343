// The result of a report: its freshness badge and detail sentence, then the chart (values as bars on
// the left axis, a count as a line on the right axis, in a labelled figure), then the table of exact values.
import type { ReactNode } from 'react';
import type { FreshnessBadgeFragment } from '../api/generated';
import { FreshnessBadge } from '../ui/components';
import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

/** The colour of the count line on every report chart. */
export const COUNT_COLOR = '#b35900';

export interface ChartSeries {
  key: string;
  name: string;
  color: string;
}

export function ReportChart(props: {
  label: string;
  caption: ReactNode;
  rows: readonly object[];
  bars: readonly ChartSeries[];
  line: ChartSeries;
}) {
  return (
    <figure className="chart" role="group" aria-label={props.label}>
      <figcaption>{props.caption}</figcaption>
      <ResponsiveContainer width="100%" height={280}>
        <ComposedChart data={[...props.rows]} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="label" />
          <YAxis yAxisId="v" />
          <YAxis yAxisId="n" orientation="right" allowDecimals={false} />
          <Tooltip />
          <Legend />
          {props.bars.map((b) => (
            <Bar key={b.key} yAxisId="v" dataKey={b.key} name={b.name} fill={b.color} isAnimationActive={false} />
          ))}
          <Line yAxisId="n" dataKey={props.line.key} name={props.line.name} stroke={props.line.color} isAnimationActive={false} />
        </ComposedChart>
      </ResponsiveContainer>
    </figure>
  );
}

export function ReportResult(props: { freshness: FreshnessBadgeFragment; empty?: string; chart: ReactNode; children: ReactNode }) {
  return (
    <div className="report-body">
      <FreshnessBadge f={props.freshness} label="Report freshness" />
      {props.empty ? <p>{props.empty}</p> : props.chart}
      {props.children}
    </div>
  );
}
