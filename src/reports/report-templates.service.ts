import { Injectable } from '@nestjs/common';
import { ReportTemplatesRepository, type ImportedTemplate } from './report-templates.repository.js';

/** The reports module's writes for the dataset import (src/import), in the caller's transaction. */
@Injectable()
export class ReportTemplatesService {
  constructor(private readonly templates: ReportTemplatesRepository) {}

  /** Creates or updates a template by name. */
  putTemplate(t: ImportedTemplate): Promise<void> {
    return this.templates.put(t);
  }
}
