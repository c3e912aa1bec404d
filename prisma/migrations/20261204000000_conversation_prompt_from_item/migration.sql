-- A result's user prompt that is its dataset item's context and question alone is no longer stored with its
-- conversation (~2.5 KB a result): the flag says it is rebuilt from the item when read. Rows stored before keep
-- their prompt (the flag is false).
ALTER TABLE "RunItemConversation" ADD COLUMN "userPromptFromItem" BOOLEAN NOT NULL DEFAULT false;
