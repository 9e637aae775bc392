// Reading the append-only audit_log (0003) for the screen, newest first, and the one row an export
// appends. Rows hold references, counts and formats, never a secret (the table's design: no column
// is meant for one, and callers keep `detail` free of them). New rows' detail is facts (JSON, views/audit.ts)
// the screen words in the buyer's language; an older row's English text is handed on as it was.
import type { Database } from 'better-sqlite3';
import { parseAuditFacts, type AuditEntry, type AuditQuery } from '../../shared/ipc/views/audit';
import type { ExportFormat } from '../../shared/ipc/views/vault';

interface AuditRow {
  id: number;
  at: number;
  action: string;
  subject: string;
  card_count: number;
  format: string | null;
  detail: string | null;
}

/** The audit log of plain-text card access (reveal, copy, export). */
export interface AuditLog {
  /** Audit rows (reveals, copies, exports), newest first, filtered by the query. */
  list(query: AuditQuery): AuditEntry[];
  /** Synchronous: runs inside the export's transaction. */
  appendExport(entry: {
      at: number;
      subject: string;
      count: number;
      format: ExportFormat;
      detail: string;
  }): void;
}

export function createAuditLog(db: Database): AuditLog {
  const page = db.prepare<{ action: string | null; beforeId: number | null; limit: number }, AuditRow>(
    `SELECT id, at, action, subject, card_count, format, detail FROM audit_log
     WHERE (@action IS NULL OR action = @action) AND (@beforeId IS NULL OR id < @beforeId)
     ORDER BY id DESC LIMIT @limit`,
  );
  const insertExport = db.prepare<{ at: number; subject: string; count: number; format: ExportFormat; detail: string }>(
    "INSERT INTO audit_log (at, action, subject, card_count, format, detail) VALUES (@at, 'export', @subject, @count, @format, @detail)",
  );

  return {
    list(query: AuditQuery): AuditEntry[] {
      return page.all({ action: query.action ?? null, beforeId: query.beforeId ?? null, limit: query.limit }).map((row) => {
        const facts = parseAuditFacts(row.detail);
        return { id: row.id, at: row.at, action: row.action, subject: row.subject, cardCount: row.card_count, format: row.format, detail: facts === null ? row.detail : null, facts };
      });
    },
    /** Synchronous: runs inside the export's transaction. */
    appendExport(entry: { at: number; subject: string; count: number; format: ExportFormat; detail: string }): void {
      insertExport.run(entry);
    },
  };
}

