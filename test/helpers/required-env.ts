/** The environment variable `name` a worker process was started with; a missing or empty one stops it at once. */
export function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}
