export async function runSyncBench(): Promise<object> {
  return {};
}
