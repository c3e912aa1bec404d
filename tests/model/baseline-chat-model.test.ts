// The offline extractive baseline: deterministic, fast, labelled, and right on easy SearchQA-style items.
import { describe, expect, it } from "vitest";
import { baselineAnswer, chooseSpan, createBaselineChatModel, parseQAPrompt } from "../../lib/model";
import { splitPassages } from "../../lib/prompts";

const userMessage = (context: string, question: string, more = "") =>
  `## Context\n${context}\n\n## Question\n${question}${more}`;

const KHRUSHCHEV_CONTEXT = [
  "[DOC] [TLE] Nikita Khrushchev - Wikipedia [PAR] Nikita Sergeyevich Khrushchev led the Soviet Union during the Cold War. Khrushchev was premier from 1958 to 1964.",
  "[DOC] [TLE] Shoe-banging incident - Wikipedia [PAR] The shoe-banging incident occurred when Khrushchev pounded his shoe on his desk at the United Nations General Assembly in New York in 1960.",
  "[DOC] [TLE] Did Khrushchev really bang his shoe? [PAR] Historians debate whether Khrushchev actually banged the shoe. Photos from the UN show a shoe on the desk.",
].join(" ");

const BORDEAUX_CONTEXT = [
  "[DOC] [TLE] Bordeaux - Wikipedia [PAR] Bordeaux is a port city on the Garonne in southwestern France, renowned for wine.",
  "[DOC] [TLE] Bordeaux wine regions [PAR] The Bordeaux region produces red wine from Merlot and Cabernet Sauvignon grapes.",
  "[DOC] [TLE] Toulouse - Wikipedia [PAR] Toulouse is also on the Garonne river.",
].join(" ");

const answerOf = (text: string) => /<answer>(.*)<\/answer>/.exec(text)?.[1];

describe("extractive baseline", () => {
  it("is labelled as a baseline, costs nothing and makes one attempt", async () => {
    const model = createBaselineChatModel();
    expect(model).toMatchObject({ backend: "baseline", model: "extractive-baseline" });
    const response = await model.complete({
      messages: [
        { role: "system", content: "You are an expert question answering agent." },
        { role: "user", content: userMessage(BORDEAUX_CONTEXT, "This French city on the Garonne is famous for its wine") },
      ],
      maxCompletionTokens: 100,
    });
    expect(response.text).toMatch(/^Extractive baseline \(no language model\): chose "Bordeaux" from passage \d+ \(overlap \d+\)\.\n<answer>Bordeaux<\/answer>$/);
    expect(response).toMatchObject({ promptTokens: 0, completionTokens: 0, attempts: 1, retries: 0, rateLimited: 0 });
  });

  it.each([
    [KHRUSHCHEV_CONTEXT, "In 1960 this Soviet premier banged his shoe on a desk at the United Nations", "Khrushchev"],
    [BORDEAUX_CONTEXT, "This French city on the Garonne is famous for its wine", "Bordeaux"],
    [
      "[DOC] [TLE] Mount Everest [PAR] Everest is Earth's highest mountain above sea level, in the Himalayas. [DOC] [TLE] Himalayas - Wikipedia [PAR] The Himalayas contain Everest and K2. [DOC] [TLE] Everest climbing history [PAR] Tenzing Norgay and Edmund Hillary first reached the summit of Everest in 1953.",
      "Hillary & Norgay first summited this peak in 1953",
      "Everest",
    ],
    [
      "Ludwig van Beethoven composed nine symphonies.\n\nThe Ninth Symphony by Beethoven ends with the Ode to Joy.\n\nBeethoven was born in Bonn.",
      "Who composed the Ode to Joy symphony?",
      "Beethoven",
    ],
  ])("picks the right span (%#)", (context, question, expected) => {
    expect(answerOf(baselineAnswer(userMessage(context, question)))).toBe(expected);
  });

  it("answers from the last user message and ignores sections after the question", () => {
    const text = baselineAnswer(userMessage(BORDEAUX_CONTEXT, "This French city on the Garonne is famous for its wine", "\n\n## Previous Codex Trace Snapshot\nToulouse Toulouse"));
    expect(answerOf(text)).toBe("Bordeaux");
  });

  it("answers nothing when there is no context", () => {
    expect(answerOf(baselineAnswer("## Question\nWho wrote Hamlet?"))).toBe("");
    expect(answerOf(baselineAnswer(userMessage("", "Who wrote Hamlet?")))).toBe("");
  });

  it("breaks ties deterministically, by first appearance", () => {
    const message = userMessage("[DOC] [TLE] Alpha [PAR] first [DOC] [TLE] Beta [PAR] second", "Which one?");
    expect(answerOf(baselineAnswer(message))).toBe("Alpha");
    expect(baselineAnswer(message)).toBe(baselineAnswer(message));
  });

  it("never answers with words from the question", () => {
    const chosen = chooseSpan(parseQAPrompt(userMessage(KHRUSHCHEV_CONTEXT, "Who is Nikita Khrushchev?")));
    expect(chosen?.span.toLowerCase()).not.toMatch(/khrushchev|nikita/);
  });

  it("splits SearchQA passages into titles and text", () => {
    expect(splitPassages("[DOC] [TLE] A title [PAR] Some text [DOC] [TLE] Only title")).toEqual([
      { title: "A title", text: "Some text" },
      { title: "Only title", text: "" },
    ]);
  });

  it("answers from a large context and honours an aborted signal", async () => {
    const passages = Array.from({ length: 60 }, (_, i) =>
      `[DOC] [TLE] Jupiter facts, part ${i} [PAR] Jupiter is the largest planet. Galileo Galilei found Io, Europa, Ganymede and Callisto in 1610 near Padua, Republic of Venice. Passage ${i} mentions NASA Juno Mission too.`,
    ).join(" ");
    const text = baselineAnswer(userMessage(passages, "Galileo discovered 4 moons orbiting this largest planet"));
    expect(answerOf(text)).toBe("Jupiter");
    await expect(
      createBaselineChatModel().complete({ messages: [{ role: "user", content: "x" }], maxCompletionTokens: 1, signal: AbortSignal.abort() }),
    ).rejects.toMatchObject({ name: "AbortError" });
  });
});
