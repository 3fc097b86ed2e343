// Analyst reports: the fitness report per school or grade (here), and the order report per day or
// currency (OrderReport.tsx), each as a chart with its table of exact values, its freshness badge and the
// detail sentence.
import { useState, type FormEvent } from 'react';
import { request } from '../api/client';
import { ConsoleFitnessReportDocument, type ConsoleFitnessReportQuery, type FitnessReportGroupBy } from '../api/generated';
import { fitnessChartRows } from '../lib/reportRows';
import { ErrorNote, Field, Select } from '../ui/components';
import { useConsole } from '../ui/context';
import { useAction } from '../ui/hooks';
import { OrderReport } from './OrderReport';
import { COUNT_COLOR, ReportChart, ReportResult, type ChartSeries } from './ReportChart';

const STATS: readonly ChartSeries[] = [
  { key: 'min', name: 'min', color: '#8fb8ea' },
  { key: 'p50', name: 'p50', color: '#1f6feb' },
  { key: 'p90', name: 'p90', color: '#0b3d91' },
  { key: 'max', name: 'max', color: '#5a1e96' },
  { key: 'average', name: 'average', color: '#2e7d32' },
];

export function Reports() {
  return (
    <>
      <h1>Reports</h1>
      <FitnessReport />
      <OrderReport />
    </>
  );
}

function FitnessReport() {
  const { session } = useConsole();
  const [detectId, setDetectId] = useState('');
  const [projectId, setProjectId] = useState('3');
  const [groupBy, setGroupBy] = useState<FitnessReportGroupBy>('SCHOOL');
  const [report, setReport] = useState<ConsoleFitnessReportQuery['fitnessReport']>();
  const action = useAction();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    await action.run(async () => {
      setReport(
        (await request(ConsoleFitnessReportDocument, { detectId: Number(detectId), projectId: Number(projectId), groupBy }, session.token))
          .fitnessReport,
      );
    });
  };
  const rows = report ? fitnessChartRows(report.groups, report.groupBy) : [];
  return (
    <section aria-labelledby="fit-h" className="report">
      <h2 id="fit-h">Fitness results</h2>
      <form className="toolbar" onSubmit={(e) => void submit(e)} aria-label="Fitness report">
        <Field label="Campaign (detectId)">
          {(id) => (
            <input id={id} inputMode="numeric" pattern="\d+" value={detectId} onChange={(e) => setDetectId(e.target.value)} required />
          )}
        </Field>
        <Field label="Project (test item)">
          {(id) => (
            <input id={id} inputMode="numeric" pattern="\d+" value={projectId} onChange={(e) => setProjectId(e.target.value)} required />
          )}
        </Field>
        <Select
          label="Group by"
          value={groupBy}
          options={[
            ['SCHOOL', 'school'],
            ['GRADE', 'grade'],
          ]}
          onChange={setGroupBy}
        />
        <button type="submit" className="primary">
          Show fitness report
        </button>
      </form>
      <ErrorNote error={action.error} what="The fitness report" />
      {report ? (
        <ReportResult
          freshness={report.freshness}
          empty={rows.length === 0 ? `No results in campaign ${report.detectId}, project ${report.projectId}.` : undefined}
          chart={
            <ReportChart
              label={`Fitness report of campaign ${report.detectId}, project ${report.projectId}, per ${report.groupBy.toLowerCase()}`}
              caption={
                `Campaign ${report.detectId}, project ${report.projectId}: min, p50, p90, max and average (${report.groups[0]?.unit}) ` +
                `per ${report.groupBy.toLowerCase()}; count on the right axis`
              }
              rows={rows}
              bars={STATS}
              line={{ key: 'count', name: 'count', color: COUNT_COLOR }}
            />
          }
        >
          <table className="compact">
            <caption className="visually-hidden">Fitness report values (exact)</caption>
            <thead>
              <tr>
                <th scope="col">{report.groupBy === 'SCHOOL' ? 'School' : 'Grade'}</th>
                <th scope="col">Unit</th>
                <th scope="col">Count</th>
                <th scope="col">Min</th>
                <th scope="col">p50</th>
                <th scope="col">p90</th>
                <th scope="col">Max</th>
                <th scope="col">Average</th>
              </tr>
            </thead>
            <tbody>
              {report.groups.map((g) => (
                <tr key={`${g.key}-${g.unit}`}>
                  <td>{g.key}</td>
                  <td>{g.unit}</td>
                  <td className="num">{g.count}</td>
                  <td className="num">{g.min}</td>
                  <td className="num">{g.p50}</td>
                  <td className="num">{g.p90}</td>
                  <td className="num">{g.max}</td>
                  <td className="num">{g.average}</td>
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
