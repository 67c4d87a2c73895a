CREATE TABLE "org_slots" (
	"org_id" text NOT NULL,
	"name" text NOT NULL,
	"slot" integer NOT NULL,
	"holder" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "org_slots_org_id_name_slot_pk" PRIMARY KEY("org_id","name","slot")
);
--> statement-breakpoint
ALTER TABLE "org_slots" ADD CONSTRAINT "org_slots_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;