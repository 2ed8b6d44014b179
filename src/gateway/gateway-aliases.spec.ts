import { gatewayTargets, NOT_AN_ALIAS, type GatewayPaths } from './gateway-aliases.js';

const GW = '/Windchill/servlet/nexiles/tools';
const plain: GatewayPaths = { gatewayBasePath: GW, basePath: '' };
const prefixed: GatewayPaths = { gatewayBasePath: GW, basePath: '/pdm' };
const gatewayTarget = (url: string, paths: GatewayPaths) => gatewayTargets(paths)(url);

describe('gatewayTargets', () => {
  it.each([
    [`${GW}/services/files/version`, '/files/version'],
    [`${GW}/services/files`, '/files'],
    [`${GW}/services/reports?number=0000*`, '/reports?number=0000*'],
    [
      `${GW}/services/query/1.0/query?q={%22name%22:%22*%22}&limit=5`,
      '/query/1.0/query?q={%22name%22:%22*%22}&limit=5',
    ],
    [
      `${GW}/services/numbers/generate/wt.doc.WTDocument?container-name=Drive%20Unit&count=2`,
      '/numbers/generate/wt.doc.WTDocument?container-name=Drive%20Unit&count=2',
    ],
    [`${GW}/services/objects/OR:wt.doc.WTDocument:2/iterations`, '/objects/OR:wt.doc.WTDocument:2/iterations'],
    [`${GW}/services/admin/users`, '/admin/users'],
    [`${GW}/services/files/0000000001/`, '/files/0000000001/'],
    [`${GW}/version`, '/version'],
    [`${GW}/version/`, '/version/'],
    [`${GW}/plugins/index.json`, '/plugins/index.json'],
    [`${GW}/plugins/index.html?x=1`, '/plugins/index.html?x=1'],
    [`${GW}/api/1.0`, '/api/1.0'],
    [`${GW}/api/1.0/epmdocuments?name=*.asm`, '/api/1.0/epmdocuments?name=*.asm'],
    [
      `${GW}/api/1.0/epmdocuments/OR:wt.epm.EPMDocument:100472/content`,
      '/api/1.0/epmdocuments/OR:wt.epm.EPMDocument:100472/content',
    ],
  ])('maps %s to %s', (url, target) => {
    expect(gatewayTarget(url, plain)).toBe(target);
    expect(gatewayTarget(url, prefixed)).toBe(`/pdm${target}`);
  });

  it('matches without regard to case, and keeps the case of what it passes on', () => {
    expect(gatewayTarget('/windchill/SERVLET/nexiles/tools/Services/Files/Version', plain)).toBe('/Files/Version');
    expect(gatewayTarget('/windchill/servlet/nexiles/tools/VERSION', prefixed)).toBe('/pdm/VERSION');
  });

  it('leaves URLs outside the gateway path alone', () => {
    for (const url of [
      '/files/version',
      '/',
      '/Windchill',
      `${GW}x/version`,
      `${GW}-old/services/files`,
      '/pdm/version',
    ]) {
      expect(gatewayTarget(url, plain)).toBeNull();
    }
    expect(gatewayTarget(`${GW}/version`, { gatewayBasePath: '', basePath: '' })).toBeNull();
  });

  it('knows addresses under the gateway path that are no alias', () => {
    for (const url of [
      GW,
      `${GW}/`,
      `${GW}?x=1`,
      `${GW}/services`,
      `${GW}/services/`,
      `${GW}/services/nope/version`,
      `${GW}/services/attributes/GETRIEBE.ASM`,
      `${GW}/services/health/live`,
      `${GW}/services/../admin/users`,
      `${GW}/services/file%73/version`,
      `${GW}/files/version`,
      `${GW}/docs`,
      `${GW}/plugins`,
      `${GW}/plugins/other.json`,
      `${GW}/versions`,
      `${GW}/api/1.0x`,
      `${GW}/api/2.0/parts`,
    ]) {
      expect([url, gatewayTarget(url, prefixed)]).toEqual([url, NOT_AN_ALIAS]);
    }
  });
});
