// The spend report for the stored connection: the orders of this database, the balance history of the
// merchant and user the app is connected to (none while not connected). The one entry the app's
// channels and the CLI use, so the screen and `report spend` can never disagree.
import type { Database } from 'better-sqlite3';
import type { SpendQuery, SpendReport } from '../../shared/ipc/views/books';
import { readConnection } from '../connection/connection-settings';
import { checkTimeZone } from './local-days';
import { spendReport } from './spend-report';

export function spendReportForConnection(db: Database, query: SpendQuery): SpendReport {
  checkTimeZone(query.timeZone);
  const connection = readConnection(db);
  return spendReport(db, query, connection === null ? null : { baseUrl: connection.baseUrl, userId: connection.userId });
}
