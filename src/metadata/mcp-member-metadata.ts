import type { ClassRef, PromptOptions, ResourceOptions } from './options';

/** What `@Resource` records for one method. */
export type ResourceMetadata = {
  /** The class that declares the method. */
  readonly target: ClassRef;
  readonly methodName: string;
  readonly options: ResourceOptions;
};

/** What `@Prompt` records for one method. */
export type PromptMetadata = {
  /** The class that declares the method. */
  readonly target: ClassRef;
  readonly methodName: string;
  readonly options: PromptOptions;
};
