-- AlterTable
ALTER TABLE "RunItemConversation" ADD COLUMN     "userPromptFromItem" BOOLEAN NOT NULL DEFAULT false;

