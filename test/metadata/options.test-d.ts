// Compile-time checks (type-checked by `tsc --noEmit`, never run): the approval context `@Tool` declares in
// metadata is the `ToolApprovalContext` a hand-written definition gets, so neither side can drift.
import type { ToolOptions } from '../../src/metadata/options';
import type { RepairArguments, ToolApprovalContext, ToolRetry } from '../../src/toolCall/type';

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Predicate = Exclude<ToolOptions['needsApproval'], boolean | undefined>;

export const sameShape: Same<Parameters<Predicate>[0], ToolApprovalContext<Record<string, unknown>>> = true;

// `@Tool({ retry, repairArguments })` spells out `ToolRetry` and `RepairArguments` for the same reason.
export const sameRetry: Same<NonNullable<ToolOptions['retry']>, ToolRetry> = true;
export const sameRepair: Same<NonNullable<ToolOptions['repairArguments']>, RepairArguments> = true;
