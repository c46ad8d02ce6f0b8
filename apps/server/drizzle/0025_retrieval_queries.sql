CREATE TABLE "retrieval_queries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"owner_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"shared" boolean DEFAULT false NOT NULL,
	"definition" jsonb NOT NULL,
	"row_version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "retrieval_queries_name_ck" CHECK (length("retrieval_queries"."name") between 1 and 100)
);
--> statement-breakpoint
ALTER TABLE "retrieval_queries" ADD CONSTRAINT "retrieval_queries_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "retrieval_queries" ADD CONSTRAINT "retrieval_queries_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "retrieval_queries" ADD CONSTRAINT "retrieval_queries_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "retrieval_queries" ADD CONSTRAINT "retrieval_queries_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "retrieval_queries_owner_name_uq" ON "retrieval_queries" USING btree ("tenant_id","project_id","owner_id",lower("name")) WHERE "retrieval_queries"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "retrieval_queries_project_idx" ON "retrieval_queries" USING btree ("tenant_id","project_id");