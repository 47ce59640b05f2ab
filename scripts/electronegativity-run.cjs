// Runs @doyensec/electronegativity through its own runner (the package's "main") and writes the
// findings as JSON. Its CLI's CSV writer is unreliable: the header and the rows go out in two
// concurrent asynchronous writes, so a report can come back truncated or with the rows lost.
// usage: node --require offline-guard.cjs electronegativity-run.cjs <toolDir> <input> <electronVersion> <outFile> [excludedCheck,...]
'use strict';
const { writeFileSync } = require('node:fs');
const { join, resolve } = require('node:path');

const [toolDir, input, electronVersion, outFile, exclude = ''] = process.argv.slice(2);
const run = require(join(toolDir, 'dist', 'runner.js'));

run(
  {
    input: resolve(input),
    output: undefined,
    isSarif: false,
    customScan: [],
    excludeFromScan: exclude ? exclude.split(',').map((c) => c.trim().toLowerCase()) : [],
    severitySet: undefined,
    confidenceSet: undefined,
    isRelative: true,
    isVerbose: true,
    electronUpgrade: undefined,
    electronVersionOverride: electronVersion,
    parserPlugins: [],
  },
  false,
).then(
  (result) => {
    const findings = result.issues.map((i) => ({
      issue: i.id,
      severity: i.severity.name,
      confidence: i.confidence.name,
      filename: i.file,
      location: `${i.location.line}:${i.location.column}`,
      sample: i.sample ?? null,
      description: i.description,
      url: `https://github.com/doyensec/electronegativity/wiki/${i.id}`,
    }));
    const errors = result.errors.map((e) => ({ file: e.file, message: e.message, tolerable: Boolean(e.tolerable) }));
    writeFileSync(outFile, JSON.stringify({ checks: { global: result.globalChecks, atomic: result.atomicChecks }, findings, errors }));
  },
  (e) => {
    console.error(e && e.stack ? e.stack : String(e));
    process.exitCode = 1;
  },
);
