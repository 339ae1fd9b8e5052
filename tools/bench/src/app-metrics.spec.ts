import { parsePrometheusText } from '@cmsg/testing';
import { growthPerUnit, quantileBuckets, reportEventLoopDelay, writeCommandsOf } from './app-metrics';
import { FiguresRecorder } from './figures-recorder';

const scrape = (text: string) => parsePrometheusText(text);

describe('growthPerUnit', () => {
  it('answers, by app, how much each label value of a counter grew per unit, summed over its other labels, largest first', () => {
    const before = {
      conversations: scrape('cmsg_mongodb_operation_duration_seconds_count{command="find",collection="a"} 10\ncmsg_mongodb_operation_duration_seconds_count{command="insert"} 4\n'),
      scheduler: scrape('cmsg_mongodb_operation_duration_seconds_count{command="find"} 7\n'),
    };
    const after = {
      conversations: scrape(
        [
          'cmsg_mongodb_operation_duration_seconds_count{command="find",collection="a"} 30',
          'cmsg_mongodb_operation_duration_seconds_count{command="find",collection="b"} 20',
          'cmsg_mongodb_operation_duration_seconds_count{command="insert"} 14',
          'cmsg_grpc_server_requests_total{method="sendMessage"} 99',
        ].join('\n'),
      ),
      scheduler: scrape('cmsg_mongodb_operation_duration_seconds_count{command="find"} 7\n'),
      gateway: scrape('cmsg_mongodb_operation_duration_seconds_count{command="update"} 5\n'),
    };
    const growth = growthPerUnit(before, after, 'cmsg_mongodb_operation_duration_seconds_count', 'command', 10);
    expect(growth).toEqual({ conversations: { find: 4, insert: 1 }, gateway: { update: 0.5 } });
    expect(Object.keys(growth['conversations']!)).toEqual(['find', 'insert']);
  });
});

describe('writeCommandsOf', () => {
  it('sums the commands that write, by their MongoDB command names', () => {
    expect(writeCommandsOf({ find: 3, insert: 1, update: 2.5, findAndModify: 1, delete: 0.5, aggregate: 1, getMore: 2 })).toBe(5);
    expect(writeCommandsOf({})).toBe(0);
  });
});

describe('reportEventLoopDelay', () => {
  it("records each app's event loop delay p99 in milliseconds, leaving out the apps that do not report it", () => {
    const recorder = new FiguresRecorder('spec');
    const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    reportEventLoopDelay({ conversations: scrape('nodejs_eventloop_lag_p99_seconds 0.0421\n'), fakes: scrape('other 1\n') }, recorder, 'full rate: ');
    expect(log.mock.calls).toEqual([['full rate: event loop delay p99: conversations 42 ms']]);
    log.mockRestore();
    expect(recorder.figures).toEqual([{ name: 'full rate: event_loop_delay_p99_ms_conversations', value: 42.1, unit: 'ms' }]);
  });
});

describe('quantileBuckets', () => {
  const histogram = (method: string, counts: Record<string, number>) =>
    Object.entries(counts)
      .map(([le, count]) => `cmsg_grpc_server_duration_seconds_bucket{method="${method}",le="${le}"} ${count}`)
      .join('\n');

  it("answers, per label value, the bucket bound that holds the quantile of the observations between two scrapes", () => {
    const before = { runner: scrape(`${histogram('submit', { '0.05': 10, '0.1': 10, '0.25': 10, '+Inf': 10 })}\n`) };
    const after = {
      runner: scrape(
        `${histogram('submit', { '0.05': 900, '0.1': 1000, '0.25': 1010, '+Inf': 1010 })}\n${histogram('rare', { '0.05': 1, '0.1': 1, '0.25': 1, '+Inf': 2 })}\n`,
      ),
    };
    // 1,000 new observations: 890 within 50 ms, 990 within 100 ms, all within 250 ms.
    expect(quantileBuckets(before, after, 'cmsg_grpc_server_duration_seconds', 'method', 0.99, 100)).toEqual({ runner: { submit: { le: 0.1, count: 1000 } } });
    expect(quantileBuckets(before, after, 'cmsg_grpc_server_duration_seconds', 'method', 0.995)).toEqual({
      runner: { submit: { le: 0.25, count: 1000 }, rare: { le: Number.POSITIVE_INFINITY, count: 2 } },
    });
  });
});
