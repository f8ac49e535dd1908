/** One write of the run, from its sending to the end of its read-back. */
export interface WriteWindow {
  /** The writes that were in flight at some moment of this one's window. */
  overlaps: Set<WriteWindow>;
  /** The status it was answered, once it was. */
  status?: number;
}

/**
 * The writes in flight in a run. Checks run their items concurrently and some race writes on
 * purpose, so a read-back shows the write it follows only when no other write may have landed
 * in between: a write is judged alone when every write that overlapped it was refused (a 4xx
 * changes nothing, contract page: Errors) by the time it is judged.
 */
export class InFlightWrites {
  private readonly open = new Set<WriteWindow>();

  begin(): WriteWindow {
    const write: WriteWindow = { overlaps: new Set(this.open) };
    for (const other of this.open) other.overlaps.add(write);
    this.open.add(write);
    return write;
  }

  end(write: WriteWindow): void {
    this.open.delete(write);
  }

  /** No write that may have changed anything overlapped `write` so far. */
  alone(write: WriteWindow): boolean {
    return [...write.overlaps].every((o) => o.status !== undefined && refused(o.status));
  }
}

function refused(status: number): boolean {
  return status >= 400 && status < 500;
}
