import type { RunState } from '../../index';
import type { EventBuffer } from './event-buffer';
import type { ModelTape } from './model-tape';
import { RunMovedOnError, type RunHold } from './run-hold';
import type { TurnRecorder } from './turn-recorder';
import type { CheckpointInput, RunStore } from '../store/run-store';

/** How a run waits or ends, as its final write stores it. */
export type RunOutcome = Omit<CheckpointInput, 'runId' | 'seq' | 'events' | 'writes'>;

/** The slice of a job a turn's checkpoint needs: where the run stands, what writes with it, and when to hand off. */
export type TurnCheckpointOptions = {
  runId: string;
  store: Pick<RunStore, 'checkpoint'>;
  /** The job's event buffer: each write carries the events buffered before it. */
  events: EventBuffer;
  /** The job's hold on the run: a checkpoint's answer extends it. */
  hold: RunHold;
  recorder: Pick<TurnRecorder, 'answered' | 'carryOver' | 'beforeCheckpoint' | 'nextTurn'>;
  tape: Pick<ModelTape, 'rebase'>;
  /** The run as the job claimed it: its sequence number and state. */
  claimed: { seq: number; state: RunState };
  /** Whether the run was claimed with decisions: they stay stored until the checkpoint after them. */
  withDecisions: boolean;
  /** Turns one job runs before it hands the run back to the queue. */
  turnsPerJob: number;
  /** Milliseconds after which a job hands the run back at its next checkpoint. */
  jobSliceMs: number;
  /** Whether the worker is closing: the job then hands its run off at its next checkpoint. */
  stopping: () => boolean;
};

/**
 * A job's writes of its run: each turn's checkpoint, one write that carries the turn's buffered events and, when the
 * job has had its share, the hand-off; and the run's final write, its state with how it waits or ends. A turn's
 * write is not awaited: it goes out alongside the next model request, and the job's hold waits for its answer.
 */
export class TurnCheckpoint {
  private current: { seq: number; state: RunState };
  /** The last sequence number the store said it saved (a checkpoint in flight, or refused, is not counted). */
  private acknowledgedSeq: number;
  private turns = 0;
  private handOff = false;
  private decisionsToCarry: boolean;
  private readonly startedAt = Date.now();

  constructor(private readonly options: TurnCheckpointOptions) {
    this.current = options.claimed;
    this.acknowledgedSeq = options.claimed.seq;
    this.decisionsToCarry = options.withDecisions;
  }

  /**
   * The last sequence number the store acknowledged for this job: a store found behind it lost writes it had
   * answered, while one behind {@link saved} may only have refused a checkpoint still in flight.
   */
  get acknowledged(): number {
    return this.acknowledgedSeq;
  }

  /** What this job saved last: the run goes on from there if the job stops. */
  get saved(): { readonly seq: number; readonly state: RunState } {
    return this.current;
  }

  /** Whether the last checkpoint handed the run back to the queue: the loop stops right after it. */
  get handedOff(): boolean {
    return this.handOff;
  }

  /** The loop's `onCheckpoint`: write the turn, unless its calls are not all answered yet. */
  readonly write = async (state: RunState): Promise<void> => {
    const { runId, store, events, hold, recorder, tape } = this.options;
    // The loop also checkpoints as it stops (an answer, a failed request, a pause): the run's final write, after
    // the loop, saves that state with its status in the same round trip.
    // Only the loop's first checkpoint can be the one after the decisions.
    const afterDecisions = this.decisionsToCarry;
    this.decisionsToCarry = false;
    // A turn of an agent under way (`children`, its calls unanswered): the agents of the turn that paused already
    // ride in it, their calls listed in `pending`.
    const inAgent = state.children !== undefined && (!state.pending.length || endsInCalls(state));
    if (!recorder.answered || (state.pending.length && !inAgent)) return;
    if (afterDecisions) {
      // The decided calls are answered: they ride the next turn's checkpoint, one write for both.
      await recorder.carryOver();
      return;
    }
    // Answered long ago in practice: the turn's tools waited for it.
    if (!(await hold.confirmed())) throw new RunMovedOnError();
    this.turns++;
    // Such a turn is saved but never handed off: the job's stop would reach the agent mid-call, and its parent would
    // take the stop for the agent's answer.
    const handOff =
      !inAgent &&
      (this.options.stopping() ||
        this.turns >= this.options.turnsPerJob ||
        Date.now() - this.startedAt >= this.options.jobSliceMs);
    const seq = this.current.seq + 1;
    const from = this.current.seq;
    await recorder.beforeCheckpoint();
    // Sent once the event writes before it are answered: `saved` may have moved on by then.
    const write = events.send((buffered, writes) =>
      store.checkpoint({
        runId,
        seq: from,
        state,
        status: 'running',
        events: buffered,
        ...(writes !== undefined ? { writes } : {}),
        ...(handOff ? { handOff } : {}),
        // The root turn's calls that finished beside the agent are answered only in the journal until that turn ends.
        ...(inAgent ? { keepJournal: true } : {}),
      }),
    );
    // Not awaited: the next model request goes out alongside it; the next turn's tools wait for its answer.
    hold.extend(
      write.then((next) => {
        if (next === undefined || !checkSeq(next, seq)) return false;
        this.acknowledgedSeq = Math.max(this.acknowledgedSeq, next);
        return true;
      }),
    );
    this.current = { seq, state };
    tape.rebase(seq);
    recorder.nextTurn();
    this.handOff = handOff;
  };

  /**
   * The run's final write, from the last turn saved: how it waits or ends, with the buffered events.
   * @returns the sequence number the store saved it at; `undefined` when the run was no longer this job's.
   */
  async finish(outcome: RunOutcome): Promise<number | undefined> {
    const { runId, store, events, recorder } = this.options;
    await recorder.beforeCheckpoint();
    const from = this.current.seq;
    return events.send((buffered, writes) =>
      store.checkpoint({ runId, seq: from, events: buffered, ...outcome, ...(writes !== undefined ? { writes } : {}) }),
    );
  }
}

/** A store's checkpoint answers the next sequence number, `input.seq + 1`: the job went on from that number. */
function checkSeq(next: number, expected: number): true {
  if (next !== expected) throw new Error(`The run store saved the checkpoint at ${next}, not ${expected}`);
  return true;
}

/** Whether the state's last message is an assistant message whose calls are not answered: saved inside a turn. */
function endsInCalls(state: RunState): boolean {
  const last = state.messages[state.messages.length - 1];
  return last?.role === 'assistant' && Boolean(last.tool_calls?.length);
}
