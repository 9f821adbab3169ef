import { createPino, PinoLoggerService, resolveLogFormat } from './pino-logger.js';

function capture(level: 'info' | 'debug', format: 'json' | 'pretty' | null = null) {
  const lines: string[] = [];
  const logger = new PinoLoggerService(
    createPino(level, { format, destination: { write: (line: string) => void lines.push(line) } }),
  );
  return { logger, lines };
}

describe('PinoLoggerService', () => {
  it("logs Nest's start-up lines at debug, so that LOG_LEVEL=info leaves them out", () => {
    const { logger, lines } = capture('info');
    logger.log('AppModule dependencies initialized', 'InstanceLoader');
    logger.log('Mapped {/api/v1, GET} route', 'RouterExplorer');
    logger.log('Nest application successfully started', 'NestApplication');
    logger.log('Hotspot API listening', 'Main');
    expect(lines.map((line) => JSON.parse(line).msg)).toEqual(['Hotspot API listening']);

    const debug = capture('debug');
    debug.logger.log('AppModule dependencies initialized', 'InstanceLoader');
    expect(JSON.parse(debug.lines[0])).toMatchObject({ level: 'debug', context: 'InstanceLoader' });
  });

  it('keeps warnings and errors of the framework at their level', () => {
    const { logger, lines } = capture('info');
    logger.warn('careful', 'RouterExplorer');
    expect(JSON.parse(lines[0])).toMatchObject({ level: 'warn', msg: 'careful' });
  });

  it('puts the text of every line under msg, whether given as a string, an object or an error', () => {
    const { logger, lines } = capture('info');
    logger.log('plain', 'A');
    logger.log({ message: 'unauth job', jobId: 'j1' }, 'B');
    logger.log({ msg: 'already msg', n: 1 }, 'C');
    logger.error(new Error('boom'), 'D');
    const parsed = lines.map((line) => JSON.parse(line));
    expect(parsed.map((line) => line.msg)).toEqual(['plain', 'unauth job', 'already msg', 'boom']);
    expect(parsed[1]).toMatchObject({ jobId: 'j1', context: 'B' });
    expect(parsed.every((line) => !('message' in line))).toBe(true);
  });

  it('writes human-readable lines with LOG_FORMAT=pretty', () => {
    const { logger, lines } = capture('info', 'pretty');
    logger.log('Hotspot API listening', 'Main');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: \[Main\] Hotspot API listening\n$/);
  });
});

describe('resolveLogFormat', () => {
  it('follows LOG_FORMAT when set, else JSON into a given destination', () => {
    expect(resolveLogFormat({ format: 'pretty', destination: { write: () => undefined } })).toBe('pretty');
    expect(resolveLogFormat({ format: 'json' })).toBe('json');
    expect(resolveLogFormat({ destination: { write: () => undefined } })).toBe('json');
  });
});
