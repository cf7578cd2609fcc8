/** The openai client the agent talks through (any OpenAI-compatible server). */
export const OPENAI = Symbol('OPENAI');
/** The model name sent with every request. */
export const MODEL_NAME = Symbol('MODEL_NAME');
/** The wire every run speaks, as `runAgentLoop` options: `{}` lets it pick from the client's base URL. */
export const WIRE = Symbol('WIRE');
