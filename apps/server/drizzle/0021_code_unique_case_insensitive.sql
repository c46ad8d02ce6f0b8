DROP INDEX "centers_project_code_uq";--> statement-breakpoint
DROP INDEX "projects_tenant_code_uq";--> statement-breakpoint
CREATE UNIQUE INDEX "centers_project_code_ci_uq" ON "centers" USING btree ("tenant_id","project_id",lower("code"));--> statement-breakpoint
CREATE UNIQUE INDEX "projects_tenant_code_ci_uq" ON "projects" USING btree ("tenant_id",lower("code"));