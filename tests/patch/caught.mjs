// What the patch suites share.

/** The error `run` throws, or null when it throws none (a damaged patch may still apply exactly). */
export function thrown(run) {
  try {
    run();
  } catch (error) {
    return error;
  }
  return null;
}
