import { parseDenyWhen, trips, type DenyWhen } from '../../src/policy/signals/deny-when';
import { compilePromQuery, resolvePromQuery, type PromQuery } from '../../src/policy/signals/prom-query';

const when = (text: string): DenyWhen => {
  const parsed = parseDenyWhen(text);
  if (typeof parsed === 'string') throw new Error(parsed);
  return parsed;
};

describe('denyWhen', () => {
  it.each([
    ['> 0.02', 0.03, true],
    ['> 0.02', 0.02, false],
    ['>= 0.02', 0.02, true],
    ['< 1', 0.5, true],
    ['<= 1', 1, true],
    ['== 0', 0, true],
    ['== 0', 1, false],
    ['!= 0', 1, true],
    ['!= 0', 0, false],
    ['>1e-3', 0.01, true],
    ['> -Inf', -5, true],
    ['> 0.02', NaN, false],
    ['!= 0', NaN, false],
    ['< 1', NaN, false],
  ])('%s with %d -> %s', (text, value, expected) => {
    expect(trips(when(text), value)).toBe(expected);
  });

  it.each(['0.02', '> x', '=> 1', '> 1 2', '', '>'])('refuses %j', (text) => {
    expect(parseDenyWhen(text)).toMatch(/^denyWhen must be a comparison with a number/);
  });
});

describe('PromQL placeholders', () => {
  const query = (text: string): PromQuery => {
    const q = compilePromQuery(text);
    if (typeof q === 'string') throw new Error(q);
    return q;
  };

  it.each([
    ['up{env="{{environment}}"}', { environment: 'prod' }, 'up{env="prod"}'],
    ['up{env="{{environment}}"}', { environment: 'a"} or vector(1) #' }, 'up{env="a\\"} or vector(1) #"}'],
    ['up{env="{{environment}}"}', { environment: 'a\\b' }, 'up{env="a\\\\b"}'],
    ['up{env=~"{{environment}}|all"}', { environment: 'a.b' }, 'up{env=~"a\\\\.b|all"}'],
    ['up{env!~ "{{environment}}"}', { environment: 'x+' }, 'up{env!~ "x\\\\+"}'],
    [
      'sum(rate(x{team="{{team}}",env="{{environment}}"}[5m]))',
      { environment: 'p', team: 't' },
      'sum(rate(x{team="t",env="p"}[5m]))',
    ],
  ])('%s with %j -> %s', (text, values, expected) => {
    expect(resolvePromQuery(query(text), values)).toEqual({ text: expected });
  });

  it.each([
    ['up{env={{environment}}}', /must sit inside a double-quoted label value/],
    ['up > {{team}}', /must sit inside a double-quoted label value/],
    ['up{env="x}', /not closed/],
    ['up{env="{{cluster}}"}', /unknown placeholder/],
    ['  ', /empty/],
  ])('refuses %j', (text, problem) => {
    expect(compilePromQuery(text)).toMatch(problem);
  });

  it('says which placeholder a run has no value for', () => {
    expect(resolvePromQuery(query('up{team="{{team}}"}'), {})).toEqual({ missing: 'team' });
  });
});
