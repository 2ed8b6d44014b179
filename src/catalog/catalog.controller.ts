import { Controller, Get, NotFoundException, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiAuthenticated, ApiErrors } from '../common/api-docs.decorators.js';
import { classView, softTypeView } from './catalog-view.js';
import { CatalogService } from './catalog.service.js';
import { CatalogClassDetailsDto, CatalogDto } from './dto/catalog.dto.js';

/** The type catalog report templates are written against: standard classes and declared types. */
@ApiTags('reports')
@ApiAuthenticated()
@Controller('reports/api/1.0/catalog')
export class CatalogController {
  constructor(private readonly catalogs: CatalogService) {}

  @Get()
  @ApiOperation({
    summary: 'The type catalog: every class, its properties, references and link roles, and the soft types',
  })
  @ApiOkResponse({ type: CatalogDto })
  async catalog(): Promise<CatalogDto> {
    const catalog = await this.catalogs.current();
    return {
      classes: catalog.listClasses().map((c) => classView(catalog, c)),
      softTypes: catalog.listSoftTypes().map(softTypeView),
    };
  }

  @Get(':cls')
  @ApiOperation({ summary: 'One class of the catalog with its soft types' })
  @ApiParam({ name: 'cls', description: 'A class name', example: 'wt.change2.WTChangeOrder2' })
  @ApiOkResponse({ type: CatalogClassDetailsDto })
  @ApiErrors({ 404: 'no such class' })
  async one(@Param('cls') name: string): Promise<CatalogClassDetailsDto> {
    const catalog = await this.catalogs.current();
    const c = catalog.findClass(name);
    if (!c) throw new NotFoundException(`no class ${name} in the catalog`);
    return {
      ...classView(catalog, c),
      softTypeDetails: catalog
        .listSoftTypes()
        .filter((s) => catalog.isA(s.cls, c.name))
        .map(softTypeView),
    };
  }
}
