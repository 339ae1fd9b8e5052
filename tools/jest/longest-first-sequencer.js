// jest's own order, longest first, with the durations of a recorded run where jest has none of its
// own: on a fresh clone jest has no cache and orders by file size, which put a 51 s fault spec (the
// smallest file) last, alone on one worker for 45 s. Failed files still go first, and files that
// neither jest nor the record knows go before the timed ones (jest's rule).
// The record: test-durations.json, refreshed by record-test-durations.mjs from a run's reports.
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;
const recorded = require('./test-durations.json');

const repositoryRoot = path.resolve(__dirname, '../..');

class LongestFirstSequencer extends Sequencer {
  time(test) {
    return super.time(test) ?? recorded[path.relative(repositoryRoot, test.path)];
  }
}

module.exports = LongestFirstSequencer;
