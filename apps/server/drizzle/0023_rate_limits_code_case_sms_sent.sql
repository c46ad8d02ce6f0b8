CREATE TABLE "rate_limit_hits" (
	"key" text PRIMARY KEY NOT NULL,
	"hits" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
DROP INDEX "centers_project_code_uq";--> statement-breakpoint
DROP INDEX "projects_tenant_code_uq";--> statement-breakpoint
ALTER TABLE "sms_outbox" ADD COLUMN "sent_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "rate_limit_hits_expires_idx" ON "rate_limit_hits" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "centers_project_code_ci_uq" ON "centers" USING btree ("tenant_id","project_id",lower("code"));--> statement-breakpoint
CREATE UNIQUE INDEX "projects_tenant_code_ci_uq" ON "projects" USING btree ("tenant_id",lower("code"));