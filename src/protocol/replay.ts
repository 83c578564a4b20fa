// A line of a resumed conversation's transcript, as the log gives it back to the screen. Types only.

export type ReplayItem = {
  kind: 'user' | 'assistant' | 'tool' | 'call' | 'output' | 'result' | 'note' | 'error';
  text: string;
};
