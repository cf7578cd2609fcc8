export { runTool } from './run-tool';
export type { RunToolProps } from './run-tool';
export { parseJsonArgs, safeParseJsonArgs, sliceJsonStr } from './parse-json-args';
export type { JsonArgsLimits } from './parse-json-args';
export { getErrText, maskSecrets } from '../text/error-text';
export type * from './type';
