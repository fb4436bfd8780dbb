// The Python runner's sources, as the page's worker bundles them (web/code-worker.js): the tests under Node
// hand them to CodeRuntime the same way.
import { readFileSync } from 'node:fs';

const read = (name) => readFileSync(new URL(`../runners/${name}`, import.meta.url), 'utf8');
export const PYTHON_SOURCES = [['function.py', read('function.py')], ['course.py', read('course.py')]];
