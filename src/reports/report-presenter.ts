import { BadRequestException, NotAcceptableException, StreamableFile } from '@nestjs/common';
import type { Request } from 'express';
import { Readable } from 'node:stream';
import type { AuthUser } from '../auth/auth-user.js';
import { formatOid, OidClass } from '../catalog/oid.js';
import type { NamedReportResultDto, QueryResultDto } from './dto/query-result.dto.js';
import type { ReportListDto } from './dto/report-list.dto.js';
import type { NamedReportQueryDto } from './dto/reports-query.dto.js';
import type { WithoutRuntime } from '../common/answers-runtime.js';
import {
  csvChunks,
  headingTags,
  negotiateFormat,
  type ReportFormat,
  type ReportResult,
  xmlChunks,
} from './report-format.js';
import type { TemplateRow } from './reports.repository.js';
import { parameterValues, type Execution, type NamedRun } from './reports.service.js';

/**
 * What the reports service answers, built from what it ran: an inline run as JSON, a named
 * report as JSON or, written a chunk of rows at a time, as CSV or the `queryResult` XML.
 */

/** The format of a named report's answer: `format` (URL parameter or form field), else Accept. */
export function requestedFormat(
  url: NamedReportQueryDto,
  form: Record<string, unknown>,
  req: Pick<Request, 'accepts' | 'headers'>,
): ReportFormat {
  const requested = form.format ?? url.format;
  if (requested !== undefined && typeof requested !== 'string') {
    throw new BadRequestException('format is given more than once');
  }
  const format = negotiateFormat(requested, req);
  if (format === 'bad') throw new BadRequestException(`format must be xml, json or csv, not "${String(requested)}"`);
  if (format === null) {
    throw new NotAcceptableException('this report is available as application/xml, application/json or text/csv');
  }
  return format;
}

/** A named report's parameter values: URL parameters, then form fields over them; `format` is not one. */
export function namedParameters(query: Record<string, unknown>, form: Record<string, unknown>): Record<string, string> {
  return { ...parameterValues(query, ['format']), ...parameterValues(form, ['format']) };
}

/** The templates of a listing, each with the URLs that run it and describe it (`base`: the service's URL). */
export function listAnswer(rows: { oid: string; name: string }[], base: string): WithoutRuntime<ReportListDto> {
  const items = rows.map((r) => ({
    url: `${base}/${encodeURIComponent(r.name)}`,
    report_url: `${base}/api/1.0/templates/${encodeURIComponent(r.oid)}`,
    oid: r.oid,
    name: r.name,
  }));
  return { count: items.length, items };
}

/** The answer of an inline QML run. */
export function inlineAnswer({ result }: Execution): WithoutRuntime<QueryResultDto> {
  return {
    count: result.rows.length,
    items: result.rows,
    ...(result.truncated ? { truncated: true } : {}),
  };
}

/** The answer of a named report in the format asked for. */
export function namedAnswer(
  format: ReportFormat,
  run: NamedRun,
  user: AuthUser,
  options: { csvNeutralizeFormulas: boolean },
): WithoutRuntime<NamedReportResultDto> | StreamableFile {
  const { row, result } = run;
  if (format === 'json') return namedJson(row, result);
  if (format === 'csv') {
    const chunks = csvChunks(result, { neutralizeFormulas: options.csvNeutralizeFormulas });
    return new StreamableFile(Readable.from(chunks), { type: 'text/csv; charset=utf-8' });
  }
  const chunks = xmlChunks(
    {
      name: row.name,
      description: row.description,
      oid: formatOid(OidClass.report, row.id),
      principal: { fullName: user.fullName ?? user.name, oid: formatOid(OidClass.user, user.id) },
      time: new Date(),
      requestParameters: Object.entries(run.given),
      qml: row.qml,
      actualParameters: run.parameters,
    },
    result,
  );
  return new StreamableFile(Readable.from(chunks), { type: 'application/xml; charset=utf-8' });
}

function namedJson(row: TemplateRow, result: ReportResult): WithoutRuntime<NamedReportResultDto> {
  const tags = headingTags(result.columns.map((c) => c.heading));
  return {
    name: row.name,
    headings: result.columns.map((c, i) => ({ heading: c.heading, tag: tags[i], type: c.typeName })),
    count: result.rows.length,
    items: result.rows,
    ...(result.truncated ? { truncated: true } : {}),
  };
}
