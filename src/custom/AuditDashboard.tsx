import Dashboard from './Dashboard';

/** The auditor's home screen; its widgets are the dashboards issue. */
export default function AuditDashboard() {
  return <Dashboard title="Audit Dashboard" />;
}
