// The health scan's Worker (healthScoring.ts): a thin trampoline that answers each batch of
// passwords with their zxcvbn scores. The engine loads here on the first batch, off the page.
import { answerScoreRequest, type ScoreRequest } from './healthScoring.ts';

self.addEventListener('message', (event: MessageEvent<ScoreRequest>) => {
  void answerScoreRequest(event.data).then((reply) => self.postMessage(reply));
});
